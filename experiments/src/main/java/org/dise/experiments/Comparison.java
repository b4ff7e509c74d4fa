package org.dise.experiments;

/**
 * One published figure beside ours: what is measured, the paper's value as the paper states it,
 * ours from this run, and a word on why they differ where they do.
 */
public record Comparison(String what, String paper, String ours, String note) {}
