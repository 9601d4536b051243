// The `answer` of a search with answer=true, built from the passages the search returned. With
// SVC_ENRICH_MODEL set it comes from that LLM (llm-answer.ts), otherwise natively: a question that
// compares two documents, asks whether two are both of a kind or share a director, author..., or
// asks of a person's birth, death, nationality or relative is answered by its rules where they
// find what they need (choice.ts, same-country.ts, same-person.ts, both.ts, life-events.ts,
// person-facts.ts), any other by the reader of the model folder (reader.ts). Invariants: answer()
// never throws and never outlives the enrichment timeout; a failure is an `error` {type, message,
// fix} from the error table, of one of the types the Answer schema allows, with `text` null;
// `citations` are ids of passages that were read (the reader's: its passage's, and the passage that
// named it when the chain was followed, reader-chain.ts; a rule's: the documents it compared or
// went through); `source` is `native` or the model. The shape is the API's Answer
// (src/api-types.ts).
import type { Answer, AnswerError } from '../api-types.js';
import type { LoadedModelFolder } from '../engine/index.js';
import { ApiError } from '../errors.js';
import type { EnrichClient } from '../llm/index.js';
import { answerBoth } from './both.js';
import { answerChoice } from './choice.js';
import { answerLifeEvent } from './life-events.js';
import { answerMessages, checkCitations, type PassageRef, promptPassages } from './llm-answer.js';
import { answerPersonFact } from './person-facts.js';
import { NativeReader, READER_FILE } from './reader.js';
import { chainCitations, type ListedPassage, passagesToRead } from './reader-chain.js';
import { answerSameCountry } from './same-country.js';
import { answerSamePerson } from './same-person.js';

/** The error types an answer can carry: the reader's and the LLM client's. */
const ANSWER_ERRORS: Record<AnswerError['type'], true> = { answer_unavailable: true, enrichment_failed: true, enrichment_timeout: true };
const isAnswerError = (type: string): type is AnswerError['type'] => Object.hasOwn(ANSWER_ERRORS, type);

/** Passages the native reader reads (a search returns at most 100). */
const NATIVE_PASSAGES = 10;

/** The native reader of a model folder, or why there is none. */
export type NativeLoad = { reader?: NativeReader; problem?: string };

/** The native reader of a (verified) model folder, or why there is none. */
export function loadReader({ manifest, files }: LoadedModelFolder): NativeLoad {
  const buf = files.get(READER_FILE);
  if (!buf) return { problem: `model ${manifest.name}@${manifest.version} has no ${READER_FILE} (no native reader)` };
  try {
    return { reader: NativeReader.parse(buf) };
  } catch (err) {
    return { problem: `model ${manifest.name}@${manifest.version}: ${READER_FILE} is unusable: ${(err as Error).message}` };
  }
}

export class Answerer {
  constructor(
    private readonly native: NativeLoad,
    private readonly llm?: { client: EnrichClient; model: string },
  ) {}

  /** One line for the startup log. */
  describe(): string {
    if (this.llm) return `answers: model ${this.llm.model} at ${this.llm.client.url}`;
    return this.native.reader ? 'answers: native reader' : `answers: unavailable (${this.native.problem})`;
  }

  async answer(question: string, passages: ListedPassage[]): Promise<Answer> {
    if (this.llm) return this.fromLlm(question, passages, this.llm);
    const { reader, problem } = this.native;
    if (!reader) return failed('native', new ApiError('answer_unavailable', problem ?? 'no native reader'));
    const listed = passages.slice(0, NATIVE_PASSAGES);
    try {
      const ruled =
        answerChoice(question, listed) ??
        answerSameCountry(question, listed) ??
        answerSamePerson(question, listed) ??
        answerBoth(question, listed) ??
        answerLifeEvent(question, listed) ??
        answerPersonFact(question, listed);
      if (ruled) return { ...ruled, source: 'native' };
      let { read, from } = passagesToRead(question, listed);
      let got = reader.read(
        question,
        read.map((p) => p.text),
      );
      if (!got && from) {
        // the named documents hold no candidate span (a title line alone): the passages as listed
        read = listed;
        from = undefined;
        got = reader.read(
          question,
          listed.map((p) => p.text),
        );
      }
      if (!got) return { text: '', citations: [], source: 'native' };
      return { text: got.text, citations: chainCitations(got.text, read[got.passage], from), source: 'native' };
    } catch (err) {
      return failed(
        'native',
        new ApiError('answer_unavailable', `the native reader failed: ${(err as Error)?.message ?? String(err)}`, {
          fix: 'Retry; if it keeps failing, report the query with the request id, or set SVC_ENRICH_MODEL.',
        }),
      );
    }
  }

  private async fromLlm(question: string, passages: PassageRef[], llm: { client: EnrichClient; model: string }): Promise<Answer> {
    const sent = promptPassages(passages);
    if (sent.length === 0) return { text: '', citations: [], source: llm.model };
    try {
      const reply = await llm.client.chat(llm.model, answerMessages(question, sent), 'answer');
      return { ...checkCitations(reply, new Set(sent.map((p) => p.doc_id))), source: llm.model };
    } catch (err) {
      return failed(llm.model, err);
    }
  }
}

function failed(source: string, err: unknown): Answer {
  const e = err instanceof ApiError ? err : new ApiError('enrichment_failed', String((err as Error)?.message ?? err));
  const { type, message, fix } = e.body().error;
  // Only the three answer types reach here (the reader's failures and EnrichClient's); another would
  // not fit the documented shape, so it would be reported as enrichment_failed.
  return { text: null, citations: [], source, error: { type: isAnswerError(type) ? type : 'enrichment_failed', message, fix } };
}
