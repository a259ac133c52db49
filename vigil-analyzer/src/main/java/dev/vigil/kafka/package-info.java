/**
 * Beyond one host (docs/KAFKA.md): {@code ship} forwards a local queue to Kafka, and {@code watch
 * --bootstrap} analyzes a fleet as a consumer group; the layer between {@code watch} and {@code
 * cli}.
 */
package dev.vigil.kafka;
