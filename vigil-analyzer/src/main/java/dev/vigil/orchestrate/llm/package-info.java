/**
 * The LLM mode of a pass (docs/STAGES.md#the-llm): a LangChain4j chat model drives the pass's
 * stages as tools, and judges the turns that wrote or claimed a write against the agent's own
 * instructions.
 */
package dev.vigil.orchestrate.llm;
