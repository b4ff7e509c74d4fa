package org.dise.testsupport;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A test run once per store kind ({@link TestStores#kinds}), the kind its first parameter; it takes
 * its store from {@link TestStores#freshOrSkip}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest
@MethodSource("org.dise.testsupport.TestStores#kinds")
public @interface OnEveryStore {}
