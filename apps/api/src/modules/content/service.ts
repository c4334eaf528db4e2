import {
  CONTENT_HISTORY_LIMIT,
  type ContentHistoryItem,
  type GenerateContentResponse,
} from '@altwise/contracts/content';
import { messages } from '@altwise/contracts/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbExecutor } from '../../db/client.ts';
import type { AltTextEngine } from '../../engines/types.ts';
import { WorkFailedError } from '../../errors.ts';
import { insertContentHistory, listContentHistory } from './repository.ts';

export type ContentService = ReturnType<typeof createContentService>;

/** The user's generated texts, newest first, as the history call and the profile show them. */
export async function getContentHistory(db: DbExecutor, userId: string): Promise<ContentHistoryItem[]> {
  const rows = await listContentHistory(db, userId, CONTENT_HISTORY_LIMIT);
  return rows.map((row) => ({ content: row.content, createdAt: row.createdAt.toISOString() }));
}

/**
 * The blog-post generator: the text engine writes (the offline engine an honest structured draft, a
 * configured language model the post), and only a text that was written is stored in the caller's
 * history. No credits are spent (the product spec prices only image work).
 */
export function createContentService(deps: {
  db: Database;
  engine: AltTextEngine;
  logger: FastifyBaseLogger;
}) {
  const { db, engine, logger } = deps;

  return {
    async generateContent(userId: string, prompt: string): Promise<GenerateContentResponse> {
      let generated: Awaited<ReturnType<AltTextEngine['generateText']>>;
      try {
        generated = await engine.generateText(prompt, { purpose: 'blog-post' });
      } catch (error) {
        logger.warn({ err: error, engine: engine.name }, 'text generation failed');
        throw new WorkFailedError(error, { work: 'The blog post' });
      }
      const row = await insertContentHistory(db, {
        userId,
        prompt,
        content: generated.text,
        engine: generated.engine,
        model: generated.model,
      });
      return {
        success: true,
        message: messages.generator.success,
        text: row.content,
        createdAt: row.createdAt.toISOString(),
        engine: row.engine,
        model: row.model,
      };
    },

    async listHistory(userId: string): Promise<{ contentHistory: ContentHistoryItem[] }> {
      return { contentHistory: await getContentHistory(db, userId) };
    },
  };
}
