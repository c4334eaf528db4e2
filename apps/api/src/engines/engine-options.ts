import { z } from 'zod';

/**
 * The engine is configured by a plain object so that it does not read the environment itself.
 * `engineEnvSchema` lists the variables; the server's config.ts folds it into the one config.
 */

export interface OpenAiOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  /** Cap on the answer's tokens; alt text is short. */
  maxTokens: number;
  temperature: number;
}

export interface ImageLimits {
  /** Refuse decoded images above this many pixels (decompression bombs). */
  maxInputPixels: number;
  /** Refuse encoded inputs above this many bytes. */
  maxInputBytes: number;
  /** Long side of the image any model sees. */
  maxSide: number;
}

export interface OfflineOptions {
  /** Worker threads, each with its own warm models. */
  workers: number;
  /** Requests waiting for a worker before new ones are refused; each holds ≤ ~4.5 MB of pixels. */
  maxQueue: number;
  /** OCR words below this confidence (0..100) are ignored. */
  ocrMinConfidence: number;
  ocrTimeoutMs: number;
  /** Object and face detections below this score are ignored. */
  minDetectionScore: number;
}

export interface EngineOptions {
  provider: 'offline' | 'openai';
  openai?: OpenAiOptions;
  offline: OfflineOptions;
  limits: ImageLimits;
  defaultMaxLength: number;
  defaultLanguage: string;
  /** Results whose confidence is below this (0..1) are marked needsReview. */
  reviewThreshold: number;
}

const intFromEnv = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const engineEnvSchema = z
  .object({
    ALT_TEXT_ENGINE: z.enum(['offline', 'openai']).default('offline'),
    OPENAI_BASE_URL: z.url().default('https://api.openai.com/v1'),
    OPENAI_API_KEY: z.string().default(''),
    OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
    OPENAI_TIMEOUT_MS: intFromEnv(30_000, 1_000, 300_000),
    OPENAI_MAX_RETRIES: intFromEnv(2, 0, 10),
    OPENAI_MAX_TOKENS: intFromEnv(300, 16, 4_000),
    ENGINE_WORKERS: intFromEnv(1, 1, 8),
    ENGINE_MAX_QUEUE: intFromEnv(32, 1, 1_000),
    ENGINE_OCR_MIN_CONFIDENCE: intFromEnv(70, 0, 100),
    ENGINE_OCR_TIMEOUT_MS: intFromEnv(3_000, 100, 60_000),
    ENGINE_MAX_INPUT_PIXELS: intFromEnv(40_000_000, 1_000_000, 268_402_689),
    ENGINE_MAX_INPUT_BYTES: intFromEnv(20 * 1024 * 1024, 1024, 200 * 1024 * 1024),
    ALT_TEXT_MAX_LENGTH: intFromEnv(125, 20, 1_000),
    ALT_TEXT_LANGUAGE: z.string().min(2).default('en'),
    ALT_TEXT_REVIEW_THRESHOLD: z.coerce.number().min(0).max(1).default(0.5),
  })
  .superRefine((env, ctx) => {
    if (env.ALT_TEXT_ENGINE === 'openai' && env.OPENAI_API_KEY === '' && isOpenAiHost(env.OPENAI_BASE_URL)) {
      ctx.addIssue({
        code: 'custom',
        path: ['OPENAI_API_KEY'],
        message: 'OPENAI_API_KEY is required when ALT_TEXT_ENGINE=openai talks to api.openai.com',
      });
    }
  });

export type EngineEnv = z.infer<typeof engineEnvSchema>;

function isOpenAiHost(baseURL: string): boolean {
  return new URL(baseURL).hostname === 'api.openai.com';
}

/** Builds engine options from environment-like input; throws a ZodError listing every bad field. */
export function engineOptionsFromEnv(env: Record<string, string | undefined>): EngineOptions {
  return engineOptionsFromParsedEnv(engineEnvSchema.parse(env));
}

/** Engine options from variables already checked by `engineEnvSchema` (the server's config.ts). */
export function engineOptionsFromParsedEnv(parsed: EngineEnv): EngineOptions {
  return {
    provider: parsed.ALT_TEXT_ENGINE,
    openai: {
      baseURL: parsed.OPENAI_BASE_URL,
      // Local servers (Ollama, LM Studio, vLLM) accept any key; the SDK insists on one.
      apiKey: parsed.OPENAI_API_KEY || 'not-needed',
      model: parsed.OPENAI_MODEL,
      timeoutMs: parsed.OPENAI_TIMEOUT_MS,
      maxRetries: parsed.OPENAI_MAX_RETRIES,
      maxTokens: parsed.OPENAI_MAX_TOKENS,
      temperature: 0.2,
    },
    offline: {
      workers: parsed.ENGINE_WORKERS,
      maxQueue: parsed.ENGINE_MAX_QUEUE,
      ocrMinConfidence: parsed.ENGINE_OCR_MIN_CONFIDENCE,
      ocrTimeoutMs: parsed.ENGINE_OCR_TIMEOUT_MS,
      minDetectionScore: 0.4,
    },
    limits: {
      maxInputPixels: parsed.ENGINE_MAX_INPUT_PIXELS,
      maxInputBytes: parsed.ENGINE_MAX_INPUT_BYTES,
      maxSide: 1024,
    },
    defaultMaxLength: parsed.ALT_TEXT_MAX_LENGTH,
    defaultLanguage: parsed.ALT_TEXT_LANGUAGE,
    reviewThreshold: parsed.ALT_TEXT_REVIEW_THRESHOLD,
  };
}

/** Defaults for code and tests that do not come from the environment. */
export function defaultEngineOptions(overrides: Partial<EngineOptions> = {}): EngineOptions {
  return { ...engineOptionsFromEnv({}), ...overrides };
}
