package dev.vigil.observe.install;

import dev.vigil.observe.capture.Site;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the advice parameter that receives the instrumented method's {@link Site} id as a constant.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface SiteId {}
