/**
 * The transactional outbox relay (src/site/markdown/outbox.md): for each configured source, the
 * committed rows of an application's outbox table become messages of its queues, each exactly once.
 * A relay per source holds the source's lease (a PostgreSQL advisory lock), reads rows in id order,
 * sends them through the engine by row id (the queue keeps a receipt of every row it stored),
 * deletes or moves them to the dead-row table, and lets the queues forget the receipts. The pure
 * parts (planning a round, settling it from the engine's answers, the SQL, the attributes' JSON)
 * know nothing of Vert.x; {@code OutboxRelay} runs them on its event loop.
 */
package dev.sluice.outbox;
