/**
 * Who may do what to a queue, decided as AWS decides it: policy documents (a queue's {@code Policy}
 * attribute and the IAM-style statements a credential is configured with) parsed from already-parsed
 * JSON or YAML trees and validated with AWS's limits and errors, and one evaluator that answers
 * allow or deny for a caller, an action and a queue, with the reason AWS's AccessDenied message
 * names. Pure: no Vert.x, no clock, no state. Imports only {@code api}.
 */
package dev.sluice.access;
