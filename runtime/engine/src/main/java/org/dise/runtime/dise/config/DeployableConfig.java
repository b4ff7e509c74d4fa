package org.dise.runtime.dise.config;

import org.dise.runtime.dise.ProductionSet;

/**
 * A deployable configuration (DESIGN.md, "What a user does" step 4): a lowered production set and
 * a label saying what it was built from. The byte layout is {@code spec/config-format.md}.
 */
public record DeployableConfig(String source, ProductionSet productions) {}
