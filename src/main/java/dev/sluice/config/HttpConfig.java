package dev.sluice.config;

/** The {@code http} section. */
public record HttpConfig(String host, int port, int instances, int maxBodyBytes, String publicBaseUrl) {}
