import { serveSandbox } from '../../lib/sandbox.ts';
import { readAnswerJson } from './answer-json.ts';

/** The WordPress answers' thread (lib/sandbox.ts, ADR 070): their JSON is parsed here, never on the API's loop. */
const handlers = { readAnswerJson: (bytes: Uint8Array) => readAnswerJson(bytes) };
export type AnswerHandlers = typeof handlers;

serveSandbox(handlers);
