package dev.vigil.adapt.prompt;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Strict UTF-8 validation: malformed or unmappable input is reported, never replaced. */
final class StrictUtf8 {
  private StrictUtf8() {}

  /** The offset of the first byte that is not valid UTF-8, or -1 when all of them are. */
  static int firstInvalidByte(byte[] bytes) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(4096);
    while (true) {
      CoderResult r = decoder.decode(in, out, true);
      if (r.isError()) {
        return in.position();
      }
      if (r.isUnderflow()) {
        return -1; // every byte consumed with end of input: a truncated sequence would have been an
        // error
      }
      out.clear(); // overflow: the decoded characters are not needed, only whether decoding
      // succeeds
    }
  }
}
