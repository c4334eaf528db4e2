import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { createAltTextEngine } from '../src/engines/alt-text-engine.ts';
import { engineOptionsFromEnv } from '../src/engines/engine-options.ts';
import { EngineInputError, EngineProviderError } from '../src/engines/errors.ts';
import { fetchImage } from '../src/engines/fetch-image.ts';
import type { PageContext } from '../src/engines/types.ts';

const usage = `Usage: altwise describe <file-or-url> [options]

Options:
  --context-file <f>   JSON file with page context: pageTitle, heading, caption,
                       surroundingText, linkTarget, existingAlt, fileName, pageUrl
  --prompt "<text>"    your own instruction (followed by the openai engine)
  --max-length <n>     maximum characters (default 125)
  --language <tag>     language of the alt text (default en)
  --keywords <a,b>     SEO keywords, used only where true
  --json               print the full result with signals and timings
  --allow-private      allow URLs on private or local addresses
  -h, --help           show this help

The engine comes from the environment (ALT_TEXT_ENGINE=offline|openai, OPENAI_*, ENGINE_*).`;

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'context-file': { type: 'string' },
      prompt: { type: 'string' },
      'max-length': { type: 'string' },
      language: { type: 'string' },
      keywords: { type: 'string' },
      json: { type: 'boolean', default: false },
      'allow-private': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, target] = positionals;
  if (values.help || command !== 'describe' || !target) {
    (values.help ? process.stdout : process.stderr).write(`${usage}\n`);
    return values.help ? 0 : 2;
  }
  const maxLength = values['max-length'] ? Number(values['max-length']) : undefined;
  if (maxLength !== undefined && (!Number.isInteger(maxLength) || maxLength < 20)) {
    process.stderr.write('--max-length must be a whole number of at least 20\n');
    return 2;
  }

  // The CLI is an entry point like server.ts: it reads the environment through the engine's schema.
  const options = engineOptionsFromEnv(process.env);
  const isUrl = /^https?:\/\//i.test(target);
  const context: PageContext = values['context-file']
    ? (JSON.parse(await readFile(values['context-file'], 'utf8')) as PageContext)
    : {};
  context.fileName ??= basename(isUrl ? new URL(target).pathname : target);
  const image = isUrl
    ? (
        await fetchImage(target, {
          allowPrivate: values['allow-private'],
          maxBytes: options.limits.maxInputBytes,
        })
      ).bytes
    : await readFile(target);

  const engine = createAltTextEngine(options);
  const started = performance.now();
  try {
    await engine.warmUp();
    const warmMs = Math.round(performance.now() - started);
    const result = await engine.describeImage(image, {
      context,
      ...(values.prompt ? { prompt: values.prompt } : {}),
      ...(maxLength ? { maxLength } : {}),
      ...(values.language ? { language: values.language } : {}),
      ...(values.keywords ? { keywords: values.keywords.split(',').map((k) => k.trim()) } : {}),
    });
    if (values.json) {
      result.signals.timingsMs.startup = warmMs;
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      process.stdout.write(`${result.decorative ? '(decorative: alt="")' : result.altText}\n`);
    }
    return 0;
  } finally {
    await engine.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof EngineInputError || error instanceof EngineProviderError) {
    process.stderr.write(`altwise: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
