/** The LLM mode of a pass (SPEC section 4.8): a LangChain4j chat model drives the pass's stages as tools. */
package dev.vigil.orchestrate.llm;
