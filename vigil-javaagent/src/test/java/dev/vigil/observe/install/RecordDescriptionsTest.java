package dev.vigil.observe.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import dev.vigil.observe.capture.RecordShape;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The instrumenter's reading of a record from its class file agrees with the capture's reading of
 * the loaded record ({@link RecordShape}): a record written from its fields needs no Jackson
 * mapper, any other does.
 */
class RecordDescriptionsTest {
  enum Size {
    COMPACT,
    VAN
  }

  enum Tagged {
    A;

    @JsonValue
    String tag() {
      return "a";
    }
  }

  @Retention(RetentionPolicy.RUNTIME)
  @JsonProperty("renamed")
  @com.fasterxml.jackson.annotation.JacksonAnnotationsInside
  @interface Renamed {}

  @Retention(RetentionPolicy.RUNTIME)
  @interface Note {}

  record Car(Size size, boolean automatic, Integer seats) {}

  record Booking(
      String number, LocalDate pickUp, Instant at, UUID id, Car car, long n, double d, short s) {}

  record Noted(@Note String name, byte b, Boolean flag, Long l, Short sh, Byte by, Double dd) {}

  record Listed(String number, List<String> lines) {}

  record Floating(float f) {}

  record Lettered(char c) {}

  record Annotated(@JsonProperty("n") String name) {}

  record MetaAnnotated(@Renamed String name) {}

  record Ignored(String name, @JsonIgnore String secret) {}

  record WithTaggedEnum(Tagged tag) {}

  record WithObject(Object any) {}

  record Empty() {}

  record Nested(Listed inner) {}

  @com.fasterxml.jackson.annotation.JsonInclude(
      com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
  record OnTheType(String name) {}

  record Serializable(String name) implements JsonSerializable {
    @Override
    public void serialize(
        com.fasterxml.jackson.core.JsonGenerator g, SerializerProvider provider) {}

    @Override
    public void serializeWithType(
        com.fasterxml.jackson.core.JsonGenerator g,
        SerializerProvider provider,
        TypeSerializer t) {}
  }

  static final class NotARecord {}

  private final ClassDescriptions classes =
      ClassDescriptions.of(RecordDescriptionsTest.class.getClassLoader());

  @Test
  void agreesWithTheShapeOfTheLoadedRecord() {
    List<Class<?>> types =
        List.of(
            Car.class,
            Booking.class,
            Noted.class,
            Listed.class,
            Floating.class,
            Lettered.class,
            Annotated.class,
            MetaAnnotated.class,
            Ignored.class,
            WithTaggedEnum.class,
            WithObject.class,
            Empty.class,
            Nested.class,
            OnTheType.class,
            Serializable.class,
            NotARecord.class,
            String.class);
    int shaped = 0;
    for (Class<?> type : types) {
      boolean expected = RecordShape.of(type) != null;
      shaped += expected ? 1 : 0;
      assertEquals(
          expected, RecordDescriptions.writtenFromFields(type.getName(), classes), type.getName());
    }
    assertEquals(3, shaped, "Car, Booking and Noted are written from their fields");
  }

  @Test
  void aRecordWhoseComponentsCannotBeReadIsNotWrittenFromItsFields() {
    byte[] car = ClassDescriptions.classFile(Car.class.getClassLoader(), Car.class.getName());
    ClassDescriptions onlyCar =
        new ClassDescriptions(name -> name.equals(Car.class.getName()) ? car : null);
    assertFalse(
        RecordDescriptions.writtenFromFields(Car.class.getName(), onlyCar),
        "the class file of its enum is nowhere");
    assertTrue(RecordDescriptions.writtenFromFields(Car.class.getName(), classes));
  }
}
