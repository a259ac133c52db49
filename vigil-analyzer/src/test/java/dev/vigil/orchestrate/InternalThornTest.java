package dev.vigil.orchestrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.vigil.emobank.BankCorruptException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class InternalThornTest {
  record Row(int intensity) {}

  @Test
  void aJacksonMappingErrorIsASchemaConflictNamingItsCallSite() {
    Exception e = null;
    try {
      new ObjectMapper().readValue("{\"intensity\":\"very high\"}", Row.class);
    } catch (IOException ex) {
      e = ex;
    }
    assertTrue(e instanceof MismatchedInputException, String.valueOf(e));
    InternalThorn t = InternalThorn.of(Step.DIAGNOSE_RBT, new IllegalStateException("wrapped", e));
    assertEquals("internal.schema_conflict", t.type());
    assertEquals("diagnosed", t.stage());
    assertEquals("diagnose_rbt", t.step());
    assertEquals("java.lang.IllegalStateException", t.exception());
    assertTrue(
        t.suggestion()
            .startsWith(
                "At dev.vigil.orchestrate.InternalThornTest."
                    + "aJacksonMappingErrorIsASchemaConflictNamingItsCallSite (InternalThornTest.java:"),
        t.suggestion());
  }

  @Test
  void numberFormatAndCastAreSchemaConflicts() {
    assertEquals(
        InternalThorn.SCHEMA_CONFLICT, InternalThorn.typeOf(new NumberFormatException("x")));
    assertEquals(InternalThorn.SCHEMA_CONFLICT, InternalThorn.typeOf(new ClassCastException("x")));
    assertEquals(InternalThorn.SCHEMA_CONFLICT, InternalThorn.typeOf(new NoSuchMethodError("x")));
    assertEquals(
        InternalThorn.SCHEMA_CONFLICT,
        InternalThorn.typeOf(new BankCorruptException(Path.of("emotions.jsonl"), 3, "bad")));
  }

  @Test
  void ioAnywhereInTheChainIsIo() {
    assertEquals(InternalThorn.IO, InternalThorn.typeOf(new NoSuchFileException("/x")));
    assertEquals(
        InternalThorn.IO,
        InternalThorn.typeOf(
            new RuntimeException(new UncheckedIOException(new IOException("disk")))));
    InternalThorn t =
        InternalThorn.of(Step.SAVE_PROPOSAL, new IOException("No space left on device"));
    assertTrue(t.suggestion().contains("No space left on device"), t.suggestion());
    assertEquals("diff_done", t.stage());
  }

  @Test
  void othersAreNamedByTheirSimpleName() {
    assertEquals(
        "internal.IllegalStateException", InternalThorn.typeOf(new IllegalStateException("x")));
    assertEquals(
        "internal.BankCorruptException",
        InternalThorn.typeOf(new BankCorruptException(Path.of("notes.txt"), 0, "foreign")));
  }

  @Test
  void survivesTheRoundTripThroughItsJson() {
    InternalThorn t =
        InternalThorn.of(Step.UPDATE_EB_FROM_LOGS, new ArithmeticException("/ by zero"));
    assertEquals(t, InternalThorn.fromJson(t.toJson()));
    assertTrue(t.frames().size() <= InternalThorn.MAX_FRAMES);
  }
}
