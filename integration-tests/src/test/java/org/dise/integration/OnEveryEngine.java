package org.dise.integration;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A test run once per way the productions run ({@link EngineEndToEndTest.Engine}: interpreted, and
 * from a configuration written and read back), the engine its first parameter.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest
@EnumSource(EngineEndToEndTest.Engine.class)
@interface OnEveryEngine {}
