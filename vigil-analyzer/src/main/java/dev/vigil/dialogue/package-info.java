/**
 * The one model of the dialogue, between ingest and appraisal: what a session is ({@link
 * dev.vigil.dialogue.SessionKey}), how its events form turns ({@link
 * dev.vigil.dialogue.Conversation}), what a tool call is and its role ({@link
 * dev.vigil.dialogue.ToolRoles}), and the words by which an answer claims an action ({@link
 * dev.vigil.dialogue.Claims}). The detectors, the policy rules, the judge, {@code eval} and {@code
 * fit} all read the dialogue through it, so that a session and a turn mean the same everywhere.
 */
package dev.vigil.dialogue;
