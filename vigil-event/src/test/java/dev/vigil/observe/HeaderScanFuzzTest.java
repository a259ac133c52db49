package dev.vigil.observe;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzzes the fast path of the header reading (docs/CONTRIBUTING.md#fuzzing): for any bytes, when
 * {@link HeaderScan} answers, Jackson's reading takes the line with the same header; it never
 * throws. Without {@code JAZZER_FUZZ} this replays the inputs under {@code
 * HeaderScanFuzzTestInputs/sameAsParser/}.
 */
class HeaderScanFuzzTest {
  @FuzzTest
  void sameAsParser(byte[] line) {
    HeaderScanTest.sameAsParser(line);
  }
}
