import type { Block, Encoded } from '../../../core/types.ts';

/** What the LLM generator is told about one repair job. Values are in the snapshot encoding. */
export interface LlmRepairInput {
  block: Block;
  /** What the block is meant to do; falls back to `block.description`. */
  description?: string;
  error?: { name: string; message: string; stack?: string };
  /** A few failing inputs (the prompt keeps the first few). */
  failing: { args?: Encoded[]; script?: string; expected?: Encoded; actual?: Encoded; error?: string }[];
  /** A few recorded or passing examples whose behaviour a fix must keep. */
  passing: { args?: Encoded[]; script?: string; expected?: Encoded }[];
}

/** The trial failures of one earlier candidate, fed back in round 2. */
export interface LlmFeedback {
  source: string;
  failures: string[];
}
