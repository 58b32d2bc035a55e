package dev.sluice.model;

/** A receive as the queue model sees it: how many, for how long hidden, which attributes. */
public record ReceiveSpec(int maxMessages, int visibilitySeconds, AttributeSelection selection) {}
