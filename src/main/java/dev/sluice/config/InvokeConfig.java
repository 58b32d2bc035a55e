package dev.sluice.config;

/**
 * Queue triggers (design/triggers.md §2.13): whether they run, how many may exist and poll at once
 * server-wide, and whether their targets may be at private addresses.
 */
public record InvokeConfig(boolean enabled, int maxTriggers, int maxConcurrentInvokes,
    boolean allowPrivateAddresses) {}
