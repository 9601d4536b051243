// The OpenAI-compatible enrichment endpoint (SVC_ENRICH_URL, default the public OpenAI API) reached
// through the `openai` package, for answers (src/answer) and transcriptions (src/ingest-content).
// Invariants: the package is loaded and the client created on first use, so a server that never
// needs enrichment never touches either; every call is
// bounded by SVC_ENRICH_TIMEOUT (one attempt, no retries; an abort signal and a timer both end it,
// body included); every failure is an ApiError of type enrichment_failed or enrichment_timeout
// whose message names the endpoint and whose fix names what to check; the API key never appears
// in a message; the OPENAI_* environment variables are never consulted.
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { ApiError } from '../errors.js';

export const DEFAULT_ENRICH_URL = 'https://api.openai.com/v1';

/** One message of a chat completion (text, or text and images). */
export type ChatMessage = ChatCompletionMessageParam;

export interface EnrichSettings {
  url?: string;
  apiKey?: string;
  timeoutMs: number;
}

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…` : s);

type OpenAiModule = typeof import('openai');

export class EnrichClient {
  private mod: OpenAiModule | undefined;
  private client: OpenAI | undefined;
  readonly url: string;

  constructor(private readonly settings: EnrichSettings) {
    this.url = settings.url ?? DEFAULT_ENRICH_URL;
  }

  private async openai(): Promise<OpenAI> {
    this.mod ??= await import('openai');
    this.client ??= new this.mod.OpenAI({
      baseURL: this.url,
      // Without a key, send no Authorization header at all (a local endpoint may need none).
      apiKey: this.settings.apiKey ?? 'unused',
      defaultHeaders: this.settings.apiKey ? {} : { Authorization: null },
      organization: null,
      project: null,
      webhookSecret: null,
      maxRetries: 0,
      timeout: this.settings.timeoutMs,
      logLevel: 'off',
    });
    return this.client;
  }

  /**
   * One chat completion; resolves with the assistant's text (non-empty) or throws an ApiError. Only
   * `model` and `messages` are sent (no temperature or token limit: some models refuse them).
   */
  async chat(model: string, messages: ChatMessage[], what: string): Promise<string> {
    let client: OpenAI;
    try {
      // Loading the client (the first call imports the package) is not the endpoint's time: the
      // deadline starts once it is ready.
      client = await this.openai();
    } catch (err) {
      throw this.classify(err, model, what);
    }
    const ms = this.settings.timeoutMs;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(this.timeout(model, what));
      }, ms);
    });
    deadline.catch(() => undefined);
    try {
      const call = client.chat.completions
        .create({ model, messages }, { signal: abort.signal, timeout: ms, maxRetries: 0 })
        .then((r) => r.choices?.[0]?.message?.content);
      call.catch(() => undefined);
      const content = await Promise.race([call, deadline]);
      if (typeof content !== 'string' || !content.trim()) {
        throw new ApiError('enrichment_failed', `model '${model}' at ${this.url} returned no text for the ${what}`, {
          fix: `Check that '${model}' is a chat model that can do this (an image needs a vision model); retry later.`,
        });
      }
      return content.trim();
    } catch (err) {
      throw this.classify(err, model, what);
    } finally {
      clearTimeout(timer);
    }
  }

  private timeout(model: string, what: string): ApiError {
    return new ApiError(
      'enrichment_timeout',
      `model '${model}' at ${this.url} did not answer the ${what} within ${this.settings.timeoutMs / 1000} s`,
    );
  }

  private classify(err: unknown, model: string, what: string): ApiError {
    if (err instanceof ApiError) return err;
    const OpenAI = this.mod?.OpenAI;
    if (!OpenAI)
      return new ApiError('enrichment_failed', `the openai package could not be loaded: ${clip((err as Error)?.message ?? String(err))}`, {
        fix: 'Reinstall the server (npm install).',
      });
    if (err instanceof OpenAI.APIConnectionTimeoutError || err instanceof OpenAI.APIUserAbortError) return this.timeout(model, what);
    const where = `the enrichment endpoint ${this.url} (model '${model}', ${what})`;
    if (err instanceof OpenAI.APIConnectionError) {
      let cause: { message?: string; code?: string | null; cause?: unknown } = err;
      for (let i = 0; i < 4 && cause.cause && typeof cause.cause === 'object'; i++) cause = cause.cause as typeof cause;
      return new ApiError(
        'enrichment_failed',
        `could not reach ${where}: ${clip([cause.code, cause.message].filter(Boolean).join(' ') || err.message)}`,
        {
          fix: 'Check SVC_ENRICH_URL (the API base, e.g. https://api.openai.com/v1) and that the server can reach it.',
        },
      );
    }
    if (err instanceof OpenAI.APIError && err.status) {
      const detail = `${where} answered HTTP ${err.status}: ${clip(err.message.replace(/^\d{3}\s*/, ''))}`;
      if (err.status === 401 || err.status === 403)
        return new ApiError('enrichment_failed', detail, { fix: 'Set SVC_ENRICH_API_KEY on the server to a key this endpoint accepts.' });
      if (err.status === 404)
        return new ApiError('enrichment_failed', detail, {
          fix: `Check that the endpoint serves model '${model}' (SVC_ENRICH_MODEL / SVC_VISION_MODEL) and that SVC_ENRICH_URL is its API base (ending in /v1).`,
        });
      if (err.status === 400 || err.status === 413 || err.status === 422)
        return new ApiError('enrichment_failed', detail, {
          fix: `The endpoint refused the request: check that model '${model}' accepts it (images need a vision model), or send smaller content.`,
        });
      return new ApiError('enrichment_failed', detail);
    }
    return new ApiError('enrichment_failed', `${where} failed: ${clip((err as Error)?.message ?? String(err))}`);
  }
}
