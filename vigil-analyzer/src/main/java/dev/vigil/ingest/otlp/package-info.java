/**
 * OpenTelemetry traces in (docs/OPENTELEMETRY.md): OTLP export requests decoded by the protocol's
 * own classes, their GenAI and OpenInference spans mapped to Vigil's events, turn by turn.
 */
package dev.vigil.ingest.otlp;
