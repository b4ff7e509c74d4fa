package org.dise.runtime.dise.config;

/** A deployable configuration that cannot be read: the message names the file and the problem. */
public final class ConfigException extends Exception {
  public ConfigException(String message) {
    super(message, null, false, false);
  }
}
