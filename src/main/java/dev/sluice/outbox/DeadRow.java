package dev.sluice.outbox;

/**
 * A row that can never become a message, moved to the dead-row table with why: the error's code (as
 * a batch send's failed entry names it, e.g. InvalidParameterValue) and message. A value.
 */
record DeadRow(long id, String errorCode, String errorMessage) {}
