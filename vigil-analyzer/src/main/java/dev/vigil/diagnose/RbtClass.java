package dev.vigil.diagnose;

/** Where a row falls in the Roses/Buds/Thorns scheme; most rows fall in none. */
enum RbtClass {
  /** A stable win to preserve. */
  ROSE,
  /** An emerging opportunity. */
  BUD,
  /** A systematic failure to repair. */
  THORN,
  /** Neither. */
  NONE
}
