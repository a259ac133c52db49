package dev.vigil.cli;

import picocli.CommandLine.IVersionProvider;

/** Reads the analyzer's version from the jar manifest ({@code dev} when run from classes). */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = Main.class.getPackage().getImplementationVersion();
    return new String[] {"vigil-analyzer " + (version == null ? "dev" : version)};
  }
}
