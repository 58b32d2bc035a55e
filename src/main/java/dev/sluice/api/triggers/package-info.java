/**
 * The triggers' admin API as wire-neutral values (being built, design/triggers.md): its errors with
 * Lambda's codes and texts.
 */
package dev.sluice.api.triggers;
