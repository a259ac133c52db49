package dev.vigil.observe.capture;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.module.SimpleSerializers;
import com.fasterxml.jackson.databind.ser.BeanSerializer;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import com.fasterxml.jackson.dataformat.smile.SmileParser;
import java.io.IOException;
import java.time.ZoneId;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalAmount;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Vigil's own Jackson mapper for snapshots (never the application's): fields only (getters are
 * never called, so no application code runs), through Smile (a real generator enforces the nesting
 * limit, and Smile keeps every number type exact), with JDK value types written at any depth as
 * {@link ValueCapture} writes them at the top level: {@code java.time} values (and Joda-Time's) as
 * their ISO text, a {@code UUID} as its text, {@code Optional} as its content or null, other JDK
 * classes Jackson would walk as beans as their {@code toString()}.
 *
 * <p>Departure from Jackson's defaults: without its jsr310 and jdk8 modules, Jackson refuses {@code
 * java.time} and {@code Optional} values outright ({@code InvalidDefinitionException}), which made
 * a whole record with one date inside fall back to its {@code toString()}. The modules are not
 * used: the serializers here are a few lines, write the same text as the top level, and add no
 * dependency to the agent.
 */
final class CaptureMapper {
  /** Deeper graphs (and cycles) are not walked: the capture records them as unreadable. */
  static final int MAX_DEPTH = 32;

  private CaptureMapper() {}

  /** A new mapper; made once per {@link ValueCapture}, on first use. */
  static ObjectMapper create() {
    SmileFactory factory =
        SmileFactory.builder()
            .streamWriteConstraints(
                StreamWriteConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
            // one self-contained value, to be copied into an event's payload (Snapshot)
            .disable(SmileGenerator.Feature.WRITE_HEADER)
            .disable(SmileGenerator.Feature.CHECK_SHARED_NAMES)
            .disable(SmileGenerator.Feature.CHECK_SHARED_STRING_VALUES)
            .disable(SmileParser.Feature.REQUIRE_HEADER)
            .build();
    SimpleModule jdk = new SimpleModule("vigil-jdk-values");
    jdk.setSerializers(new JdkValues());
    jdk.setSerializerModifier(new JdkBeansAsText());
    return new ObjectMapper(factory)
        .registerModule(jdk)
        .setVisibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
        .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
        .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);
  }

  /**
   * Whether a JDK (or Joda-Time) class is a date, time, zone or amount of time, written as its ISO
   * text.
   */
  static boolean isTimeValue(Class<?> type) {
    String name = type.getName();
    return name.startsWith("java.time.")
        || name.startsWith("org.joda.time.")
        || TemporalAccessor.class.isAssignableFrom(type)
        || TemporalAmount.class.isAssignableFrom(type)
        || ZoneId.class.isAssignableFrom(type);
  }

  /** Whether the class named {@code name} is the JDK's: never walked as a bean, written as text. */
  static boolean isJdk(String name) {
    return name.startsWith("java.")
        || name.startsWith("javax.")
        || name.startsWith("jdk.")
        || name.startsWith("sun.")
        || name.startsWith("com.sun.");
  }

  /** Whether {@code type} is {@code Optional} or a primitive one: written as its content. */
  static boolean isOptional(Class<?> type) {
    return type == Optional.class
        || type == OptionalInt.class
        || type == OptionalLong.class
        || type == OptionalDouble.class;
  }

  /** The content of an {@code Optional} or a primitive one, null when empty. */
  static Object optionalContent(Object value) {
    if (value instanceof Optional<?> o) {
      return o.orElse(null);
    }
    if (value instanceof OptionalInt o) {
      return o.isPresent() ? o.getAsInt() : null;
    }
    if (value instanceof OptionalLong o) {
      return o.isPresent() ? o.getAsLong() : null;
    }
    OptionalDouble o = (OptionalDouble) value;
    return o.isPresent() ? o.getAsDouble() : null;
  }

  /** Serializers for the JDK value types Jackson has none for without its modules. */
  private static final class JdkValues extends SimpleSerializers {
    private static final long serialVersionUID = 1L;

    @Override
    public JsonSerializer<?> findSerializer(
        SerializationConfig config, JavaType type, BeanDescription description) {
      Class<?> raw = type.getRawClass();
      if (isOptional(raw)) {
        return OptionalAsContent.INSTANCE;
      }
      // UUID too: Jackson writes it as 16 bytes to a binary format such as Smile, as text to JSON
      if (raw == UUID.class || (isTimeValue(raw) && !raw.isEnum())) {
        return ToStringSerializer.instance;
      }
      return super.findSerializer(config, type, description);
    }
  }

  /**
   * An {@code Optional} (or a primitive one) as its content, null when empty, as Jackson's jdk8
   * module writes it.
   */
  private static final class OptionalAsContent extends StdSerializer<Object> {
    private static final long serialVersionUID = 1L;
    static final OptionalAsContent INSTANCE = new OptionalAsContent();

    private OptionalAsContent() {
      super(Object.class);
    }

    @Override
    public void serialize(Object value, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      provider.defaultSerializeValue(optionalContent(value), gen);
    }
  }

  /**
   * JDK classes that Jackson would treat as beans (a {@code Thread}, a {@code Socket}) are recorded
   * by their {@code toString()}: Vigil never walks the internals of the JDK.
   */
  private static final class JdkBeansAsText extends BeanSerializerModifier {
    private static final long serialVersionUID = 1L;

    @Override
    public JsonSerializer<?> modifySerializer(
        SerializationConfig config, BeanDescription description, JsonSerializer<?> serializer) {
      if (isJdk(description.getBeanClass().getName()) && serializer instanceof BeanSerializer) {
        return ToStringSerializer.instance;
      }
      return serializer;
    }
  }
}
