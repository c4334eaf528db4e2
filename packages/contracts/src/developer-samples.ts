/**
 * The code samples of the Developers page (/developers). They live here, apart from the page,
 * so that the API's tests can run them: developer-samples.test.ts (apps/api/test) checks that every curl
 * call names a route and method of apps/api/openapi.json and runs `webhookVerifySample` against the
 * server's own webhook signer.
 */

/** The shell variables the curl samples use. */
export const environmentSample = `export ALTWISE_URL="https://your-altwise-host"   # where Altwise runs
export ALTWISE_API_KEY="ak_…"                     # from Account › API keys`;

/** How every call authenticates. */
export const authHeaderSample = 'Authorization: Bearer ak_…';

export type CurlSample = { id: string; title: string; description: string; command: string };

export const curlSamples: readonly CurlSample[] = [
  {
    id: 'create-batch',
    title: 'Create a batch from image URLs',
    description:
      'Up to 200 image URLs per call, one credit each, reserved up front and refunded for every image that fails. The answer (202) carries the batch id.',
    command: `curl -X POST "$ALTWISE_URL/api/v1/images/generate-alt-text" \\
  -H "Authorization: Bearer $ALTWISE_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"selectedImages": ["https://example.com/img/red-shoe.jpg"], "language": "en", "keywords": ["running shoe"]}'`,
  },
  {
    id: 'import-csv',
    title: 'Or import a CSV of up to 100,000 image URLs',
    description:
      'A header row with image_url (required) and optionally id, page_url, existing_alt, caption, keywords (separated by ;) and language. An .xlsx file with the same header works too.',
    command: `curl -X POST "$ALTWISE_URL/api/v1/images/import-csv" \\
  -H "Authorization: Bearer $ALTWISE_API_KEY" \\
  -F "file=@images.csv;type=text/csv" \\
  -F "language=en"`,
  },
  {
    id: 'follow-batch',
    title: 'Follow its progress',
    description:
      'The batch with its status (queued, processing, completed or failed) and counts; or, with -N, a stream of server-sent progress events that ends when the batch does.',
    command: `curl "$ALTWISE_URL/api/v1/images/batches/$BATCH_ID" \\
  -H "Authorization: Bearer $ALTWISE_API_KEY"

curl -N "$ALTWISE_URL/api/v1/images/batches/$BATCH_ID/events" \\
  -H "Authorization: Bearer $ALTWISE_API_KEY"`,
  },
  {
    id: 'read-results',
    title: 'Read the results',
    description:
      'The batch as CSV (id, image_url, alt_text, status, long_description, origin; your own id column from a CSV import), or your whole library as JSON, newest first, 25 to 500 images a page. `origin` says where each alt text came from: human, embedded, ai, ai-reviewed or ai-edited.',
    command: `curl "$ALTWISE_URL/api/v1/images/batches/$BATCH_ID/results.csv" \\
  -H "Authorization: Bearer $ALTWISE_API_KEY" -o results.csv

curl "$ALTWISE_URL/api/v1/images/altText?page=1&pageSize=100" \\
  -H "Authorization: Bearer $ALTWISE_API_KEY"`,
  },
  {
    id: 'images-with-alt',
    title: 'Download the images with their alt text inside the files',
    description:
      'Up to 500 library images as a zip: each file a copy with its alt text written as IPTC Alt Text (Accessibility), which DAMs and photo tools read, and a manifest.csv that names each file or why an image was left out. Costs no credits.',
    command: `curl -X POST "$ALTWISE_URL/api/v1/images/altText/with-alt.zip" \\
  -H "Authorization: Bearer $ALTWISE_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"ids": ["0b9e6c1e-5d0a-4f4e-9a7e-2f1c3d4b5a69"]}' -o images-with-alt-text.zip`,
  },
];

/**
 * Node (18 or later), no dependencies: checks a webhook's Standard Webhooks signature. `secret` is the
 * `whsec_…` value shown when the webhook was added; `body` the raw request body, before any JSON parsing.
 */
export const webhookVerifySample = `import { createHmac, timingSafeEqual } from 'node:crypto';

// secret: the whsec_… value shown when you added the webhook.
// headers: the request's headers (lower-case names); body: the raw body as a string.
export function verifyAltwiseWebhook(secret, headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'] ?? '';
  if (!id || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${body}\`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature = ''] = entry.split(',');
    const given = Buffer.from(signature, 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}`;
