/**
 * Who may use what: AWS Signature Version 4, the management token, the browser origins of the
 * bridge, and {@link dev.sluice.auth.Surfaces}, which decides from the configuration what guards
 * each surface and reports what is left open. Imports {@code api} and {@code config}.
 */
package dev.sluice.auth;
