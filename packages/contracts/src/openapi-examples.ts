import { z } from 'zod';
import { apiKeyListSchema, createApiKeyRequestSchema, createdApiKeySchema } from './api-keys.ts';
import {
  auditImagesResponseSchema,
  auditPagesResponseSchema,
  auditSchema,
  fixAuditRequestSchema,
  fixAuditResponseSchema,
  listAuditsResponseSchema,
  pageAnnouncementsResponseSchema,
  reviewAuditRequestSchema,
  reviewAuditResponseSchema,
  startAuditRequestSchema,
  startAuditResponseSchema,
} from './audit.ts';
import {
  accountMessages,
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  confirmEmailResponseSchema,
  deleteAccountRequestSchema,
  emailOnlyRequestSchema,
  googleAuthRequestSchema,
  googleAuthResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  profileResponseSchema,
  publicConfigResponseSchema,
  registerRequestSchema,
  registrationEmailRequestSchema,
  registrationEmailResponseSchema,
  resetPasswordRequestSchema,
  statusMessageResponseSchema,
  updateProfileRequestSchema,
  updateProfileResponseSchema,
} from './auth.ts';
import {
  billingHistoryResponseSchema,
  cancelSubscriptionResponseSchema,
  createCheckoutSessionRequestSchema,
  createCheckoutSessionResponseSchema,
  creditsRemainingResponseSchema,
  deductCreditsRequestSchema,
  deductCreditsResponseSchema,
  freePlanResponseSchema,
  legacyCheckoutRequestSchema,
  legacyCheckoutResponseSchema,
  refundCreditsRequestSchema,
  refundCreditsResponseSchema,
  sandboxConfirmRequestSchema,
  sandboxConfirmResponseSchema,
  subscriptionDetailsResponseSchema,
  verifyPaymentResponseSchema,
  webhookAckResponseSchema,
} from './billing.ts';
import { contactRequestSchema, contactResponseSchema } from './contact.ts';
import {
  contentHistoryResponseSchema,
  generateContentRequestSchema,
  generateContentResponseSchema,
} from './content.ts';
import {
  batchProgressSchema,
  batchStartedMessage,
  editAltTextRequestSchema,
  generateAltTextRequestSchema,
  importCsvResponseSchema,
  listBatchesResponseSchema,
  regenerateAltTextRequestSchema,
  regenerateAltTextResponseSchema,
  startBatchResponseSchema,
} from './generation.ts';
import { healthResponseSchema } from './health.ts';
import { imagesWithAltRequestSchema } from './image-metadata.ts';
import {
  connectWordPressRequestSchema,
  integrationSchema,
  integrationSummarySchema,
  listChangesResponseSchema,
  listIntegrationsResponseSchema,
  publishPreviewResponseSchema,
  publishRequestSchema,
  startIntegrationJobResponseSchema,
  undoRequestSchema,
} from './integrations.ts';
import {
  deleteLibraryImagesRequestSchema,
  deleteLibraryImagesResponseSchema,
  libraryImageSchema,
  listLibraryImagesResponseSchema,
} from './library.ts';
import { messages } from './messages.ts';
import {
  createMonitorRequestSchema,
  listMonitorsResponseSchema,
  monitorDetailSchema,
  monitorSchema,
} from './monitors.ts';
import {
  createReelFormSchema,
  editImageFormSchema,
  importCsvFormSchema,
  styledCaptionFormSchema,
  uploadAndGenerateFormSchema,
} from './multipart-forms.ts';
import { scrapeRequestSchema, scrapeResponseSchema } from './scrape.ts';
import {
  editImageResponseSchema,
  generateImagesRequestSchema,
  generateImagesResponseSchema,
  styledCaptionResponseSchema,
} from './studio.ts';
import {
  createdWebhookSchema,
  createWebhookRequestSchema,
  listWebhookDeliveriesResponseSchema,
  listWebhooksResponseSchema,
  rotatedWebhookSecretSchema,
  webhookDeliverySchema,
} from './webhooks.ts';

/**
 * One realistic example per request body and per success answer of the /api/v1 routes,
 * next to the contracts they illustrate. Only the API imports this module: `registerOpenApiExamples()`
 * attaches each example to its schema in zod's global registry, so the OpenAPI document
 * (apps/api/openapi.json) shows it wherever the schema is used, and the web bundle carries none of it.
 * openapi-examples.test.ts checks that every example is valid for its schema.
 */

const ids = {
  user: '3f2b8c1e-5d4a-4e7b-9c21-7a1d9e0b6f42',
  batch: '0b9e4f6a-2c3d-4e5f-8a7b-1c2d3e4f5a6b',
  image: '5a1c7e2b-9d3f-4a6e-b8c1-2f4d6a8b0c1e',
  image2: '6b2d8f3c-0e4a-4b7f-a9d2-3a5e7b9c1d2f',
  apiKey: '7c3e9a4d-1f5b-4c8a-8e3f-4b6f8c0d2e3a',
  webhook: '8d4fab5e-2a6c-4d9b-9f4a-5c7a9d1e3f4b',
  delivery: '9e5abc6f-3b7d-4eac-8a5b-6d8bae2f4a5c',
  audit: 'ae6bcd7a-4c8e-4fbd-9b6c-7e9cbf3a5b6d',
  auditImage: 'bf7cde8b-5d9f-4acd-8c7d-8fadca4b6c7e',
  monitor: 'c08def9c-6eaf-4bde-9d8e-9abedb5c7d8f',
  monitorRun: 'd19ef0ad-7fb0-4cef-8e9f-abcfec6d8e9a',
  monitorRun2: 'e2af01be-80c1-4d0f-9fa0-bcd0fd7e9fab',
  audit2: 'f3b012cf-91d2-4e1a-8ab1-cde10e8fa0bc',
  integration: 'a1c3e5f7-2b4d-4f6a-8c0e-1a3c5e7f9b2d',
  change: 'd19efaad-7fb0-4cef-8e9f-abcfec6d8e9a',
  auditPage: 'c08def9c-6eaf-4bde-9d8e-9abedb5c7d8f',
} as const;
const createdAt = '2026-11-23T09:30:00.000Z';
const finishedAt = '2026-11-23T09:31:12.000Z';
const wordpressSite = {
  id: ids.integration,
  kind: 'wordpress' as const,
  siteUrl: 'https://blog.example.com',
  username: 'editor',
  status: 'connected' as const,
  createdAt,
};
const sessionToken = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIzZjJiOGMxZSJ9.c2lnbmF0dXJl';
const user = {
  id: ids.user,
  username: 'ada@example.com',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
};
const engine = { engine: 'offline' as const, model: 'altwise-offline-1' };
const libraryImage = {
  id: ids.image,
  src: 'https://shop.example.com/img/red-shoe.jpg',
  alt_text: 'Red leather running shoe with white laces, side view',
  origin: 'ai-reviewed' as const,
  confidence: 0.86,
  needsReview: false,
  reasons: [
    { source: 'caption', detail: 'Red leather running shoe' },
    { source: 'detection', detail: 'shoe', score: 0.93 },
  ],
  needsWords: false,
  needsWordsReason: null,
  publishable: true,
  longDescription: null,
  thumbnailUrl:
    'https://altwise.example.com/files/previews/2026-11/0b9e6c1e-5d0a-4f4e-9a7e-2f1c3d4b5a69.webp',
  fileName: 'red-shoe.jpg',
};
const progress = {
  id: ids.batch,
  status: 'completed' as const,
  total: 3,
  completed: 2,
  failed: 1,
  creditsReserved: 3,
  createdAt,
  finishedAt,
  failures: [
    { src: 'https://shop.example.com/img/missing.png', error: 'The image could not be downloaded (404)' },
  ],
};
const webhook = {
  id: ids.webhook,
  url: 'https://cms.example.com/hooks/altwise',
  events: ['batch.completed', 'batch.failed'] as ('batch.completed' | 'batch.failed')[],
  createdAt,
};
const audit = {
  id: ids.audit,
  url: 'https://shop.example.com/',
  scope: 'site' as const,
  maxPages: 25,
  render: 'auto' as const,
  pagesRendered: 2,
  status: 'completed' as const,
  notices: [],
  pagesScanned: 12,
  imagesFound: 140,
  score: 82,
  counts: { pass: 98, fail: 18, warning: 14, decorative: 10 },
  problems: { missing: 11, 'file-name': 7, 'too-long': 14, 'text-mismatch': 2, 'keyword-stuffing': 1 },
  reviews: { pending: 18, accepted: 0, rejected: 0, edited: 0 },
  createdAt,
  finishedAt,
};
const monitorDifference = {
  newFailures: 1,
  fixed: 3,
  scoreChange: 0.04,
  newFailureImages: [
    { pageUrl: 'https://shop.example.com/shoes', src: 'https://shop.example.com/img/IMG_0107.jpg' },
  ],
  fixedImages: [
    { pageUrl: 'https://shop.example.com/', src: 'https://shop.example.com/img/hero.jpg' },
    { pageUrl: 'https://shop.example.com/shoes', src: 'https://shop.example.com/img/IMG_0042.jpg' },
    { pageUrl: 'https://shop.example.com/shoes', src: 'https://shop.example.com/img/IMG_0043.jpg' },
  ],
};
const monitorRun = {
  id: ids.monitorRun2,
  auditId: ids.audit2,
  status: 'completed' as const,
  reason: null,
  score: 0.86,
  startedAt: '2026-11-24T09:30:00.000Z',
  finishedAt: '2026-11-24T09:31:05.000Z',
  difference: monitorDifference,
};
const monitor = {
  id: ids.monitor,
  url: 'https://shop.example.com/',
  scope: 'site' as const,
  maxPages: 25,
  render: 'always' as const,
  every: 'day' as const,
  createdAt,
  nextRunAt: '2026-11-25T09:30:00.000Z',
  history: [
    { at: finishedAt, score: 0.82 },
    { at: '2026-11-24T09:31:05.000Z', score: 0.86 },
  ],
  lastRun: monitorRun,
  lastDifference: monitorDifference,
};
const auditImage = {
  id: ids.auditImage,
  pageUrl: 'https://shop.example.com/shoes',
  src: 'https://shop.example.com/img/IMG_0042.jpg',
  alt: 'IMG_0042.jpg',
  role: 'content' as const,
  element: 'img' as const,
  name: 'IMG_0042.jpg',
  nameSource: 'alt' as const,
  verdict: 'fail' as const,
  problems: [
    {
      code: 'file-name' as const,
      severity: 'fail' as const,
      wcag: ['1.1.1'],
      message: 'The alt text is a file name.',
    },
  ],
  suggestion: 'Red leather running shoe with white laces, side view',
  longDescription: null,
  reviewState: 'pending' as const,
  origin: 'ai' as const,
  fixStatus: null,
  thumbnailUrl:
    'https://altwise.example.com/files/previews/2026-11/7d2f4a90-1c3b-4e8f-b6a5-3e9d0c2b1a47.webp',
  suggestionEvidence: {
    confidence: 0.82,
    needsReview: false,
    reasons: [{ source: 'detection', detail: 'shoe', score: 0.91 }],
    needsWords: false,
    needsWordsReason: null,
    publishable: true,
  },
  usedIn: { heading: 'Running shoes', caption: null, linkTarget: null, linkText: null },
  screenshotUrl: `/api/v1/audits/${ids.audit}/images/${ids.auditImage}/screenshot`,
};

/** [schema, example] pairs: the schema instances the routes use. */
export const openApiExamples: ReadonlyArray<readonly [z.ZodType, unknown]> = [
  // health, accounts
  [
    healthResponseSchema,
    {
      status: 'ok',
      version: '0.0.0',
      uptimeSeconds: 3600,
      role: 'all',
      database: { status: 'up', driver: 'postgres', latencyMs: 2 },
      queue: { status: 'up', driver: 'pg-boss', latencyMs: 3 },
      storage: { status: 'up', driver: 'local', latencyMs: 1 },
    },
  ],
  [publicConfigResponseSchema, { googleClientId: null }],
  [
    registerRequestSchema,
    { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', password: 'correct horse battery' },
  ],
  [statusMessageResponseSchema, { status: 'success', message: accountMessages.registered }],
  [confirmEmailResponseSchema, { status: 'success', message: accountMessages.emailConfirmed }],
  [emailOnlyRequestSchema, { email: 'ada@example.com' }],
  [loginRequestSchema, { email: 'ada@example.com', password: 'correct horse battery' }],
  [loginResponseSchema, { status: 'success', message: 'Login successful', token: sessionToken, user }],
  [
    profileResponseSchema,
    {
      user: {
        ...user,
        image_credits: 22,
        imagecount: 3,
        subscriptionPlan: 'Free',
        apiRequestCount: 3,
        monthlyRequestCount: 3,
        contentHistory: [],
        defaultLanguage: 'en',
      },
    },
  ],
  [updateProfileRequestSchema, { firstName: 'Ada', lastName: 'Lovelace', defaultLanguage: 'de' }],
  [updateProfileResponseSchema, { status: 'success', message: accountMessages.profileUpdated, user }],
  [
    changePasswordRequestSchema,
    { currentPassword: 'correct horse battery', newPassword: 'staple tuning fork' },
  ],
  [
    changePasswordResponseSchema,
    { status: 'success', message: accountMessages.passwordUpdated, token: sessionToken },
  ],
  [resetPasswordRequestSchema, { token: 'c8f1d2e3a4b5', password: 'staple tuning fork' }],
  [googleAuthRequestSchema, { credential: 'eyJhbGciOiJSUzI1NiJ9.eyJlbWFpbCI6ImFkYUBleGFtcGxlLmNvbSJ9.sig' }],
  [
    googleAuthResponseSchema,
    { status: 'success', isExistingUser: true, message: 'Login successful', token: sessionToken, user },
  ],
  [registrationEmailRequestSchema, { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }],
  [registrationEmailResponseSchema, { success: true }],
  [deleteAccountRequestSchema, { password: 'correct horse battery' }],
  // API keys and webhooks
  [createApiKeyRequestSchema, { name: 'CMS build' }],
  [
    createdApiKeySchema,
    {
      id: ids.apiKey,
      name: 'CMS build',
      prefix: 'ak_Q2x1c3Rl',
      key: 'ak_Q2x1c3RlcktleUV4YW1wbGVPbmx5Tm90QVJlYWxLZXk',
      createdAt,
    },
  ],
  [
    apiKeyListSchema,
    [{ id: ids.apiKey, name: 'CMS build', prefix: 'ak_Q2x1c3Rl', createdAt, lastUsedAt: finishedAt }],
  ],
  [createWebhookRequestSchema, { url: webhook.url, events: webhook.events }],
  [createdWebhookSchema, { ...webhook, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7ILZ0Oc7EIc=' }],
  [listWebhooksResponseSchema, [webhook]],
  [
    rotatedWebhookSecretSchema,
    {
      ...webhook,
      secret: 'whsec_3q2+7wAAAAC8n5Vb0m1Yh4x6k2QyJ9Tq8sLwZ0pR4uE=',
      previousSecretExpiresAt: '2026-11-24T09:31:12.000Z',
    },
  ],
  [
    webhookDeliverySchema,
    {
      id: ids.delivery,
      event: 'batch.completed',
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      createdAt: finishedAt,
      deliveredAt: finishedAt,
    },
  ],
  [
    listWebhookDeliveriesResponseSchema,
    [
      {
        id: ids.delivery,
        event: 'batch.completed',
        status: 'delivered',
        attempts: 2,
        lastStatusCode: 200,
        lastError: null,
        createdAt: finishedAt,
        deliveredAt: '2026-11-23T09:31:45.000Z',
      },
    ],
  ],
  // credits and billing
  [creditsRemainingResponseSchema, { success: true, imageCredits: 22 }],
  [deductCreditsRequestSchema, { usedCredits: 3 }],
  [
    deductCreditsResponseSchema,
    {
      success: true,
      remainingCredits: 19,
      reservationId: ids.batch,
      message: 'Credits deducted successfully',
    },
  ],
  [refundCreditsRequestSchema, { refundCredits: 1, reservationId: ids.batch }],
  [
    refundCreditsResponseSchema,
    { success: true, remainingCredits: 20, refundedCredits: 1, message: 'Credits refunded successfully' },
  ],
  [createCheckoutSessionRequestSchema, { productId: 'credit-pack', quantity: 2 }],
  [
    createCheckoutSessionResponseSchema,
    {
      success: true,
      message: 'Checkout session created',
      checkoutUrl: 'https://checkout.example.com/session/cs_123',
      checkoutId: 'cs_123',
    },
  ],
  [
    subscriptionDetailsResponseSchema,
    {
      subscription: {
        current_plan: 'Pro Monthly',
        payment_status: 'active',
        next_renewal_date: '2026-12-23T00:00:00.000Z',
        cancel_at_period_end: false,
        current_period_end: '2026-12-23T00:00:00.000Z',
      },
    },
  ],
  [cancelSubscriptionResponseSchema, { success: true, message: 'Your plan will not renew.' }],
  [
    billingHistoryResponseSchema,
    {
      history: [
        {
          title: 'Credit Pack',
          status: 'succeeded',
          date: createdAt,
          transactionId: 'pay_123',
          creditsAdded: 200,
        },
      ],
      pagination: { currentPage: 1, totalPages: 1 },
    },
  ],
  [freePlanResponseSchema, { success: true, message: 'Free plan activated' }],
  [legacyCheckoutRequestSchema, { amount: 9, subscriptionPlan: 'credit-pack' }],
  [legacyCheckoutResponseSchema, { clientSecret: 'pi_123_secret_456' }],
  [
    sandboxConfirmRequestSchema,
    { clientSecret: 'pi_123_secret_456', cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' },
  ],
  [sandboxConfirmResponseSchema, { status: 'succeeded', paymentIntentId: 'pi_123' }],
  [
    verifyPaymentResponseSchema,
    {
      success: true,
      status: 'succeeded',
      message: messages.payment.success,
      transactionId: 'pay_123',
      productId: 'credit-pack',
      title: 'Credit Pack',
      creditsAdded: 200,
      amount: 9,
      date: createdAt,
    },
  ],
  [webhookAckResponseSchema, { received: true, duplicate: false }],
  // contact, content
  [
    contactRequestSchema,
    {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      message: 'Can I import a spreadsheet of 50,000 image URLs?',
    },
  ],
  [contactResponseSchema, { success: true, message: messages.contact.success }],
  [
    generateContentRequestSchema,
    { prompt: 'Write a formal blog post for the technology category about: alt text' },
  ],
  [
    generateContentResponseSchema,
    {
      success: true,
      message: 'Content generated',
      text: '# Why alt text matters\n\nAlt text describes an image to people who cannot see it…',
      createdAt,
      ...engine,
    },
  ],
  [
    contentHistoryResponseSchema,
    { contentHistory: [{ content: '# Why alt text matters\n\nAlt text describes an image…', createdAt }] },
  ],
  // scrape, generation, library
  [scrapeRequestSchema, { url: 'https://shop.example.com/shoes' }],
  [
    scrapeResponseSchema,
    [
      {
        src: 'https://shop.example.com/img/red-shoe.jpg',
        alt: '',
        context: { pageTitle: 'Running shoes', caption: 'Red leather running shoe', siteName: 'Shoe Shop' },
        invalid: false,
      },
      {
        src: 'https://shop.example.com/img/star-full.png',
        alt: '',
        context: {
          pageTitle: 'Running shoes',
          surroundingText: 'Rating:',
          imageRow: {
            position: 1,
            files: ['star-full.png', 'star-full.png', 'star-full.png', 'star-half.png', 'star-empty.png'],
          },
          siteName: 'Shoe Shop',
        },
        invalid: false,
      },
    ],
  ],
  [
    generateAltTextRequestSchema,
    {
      selectedImages: [
        'https://shop.example.com/img/red-shoe.jpg',
        {
          src: 'https://shop.example.com/img/blue-shoe.jpg',
          alt: '',
          context: { caption: 'Blue suede shoe' },
        },
      ],
      pageUrl: 'https://shop.example.com/shoes',
      language: 'en',
      keywords: ['running shoe'],
    },
  ],
  [
    startBatchResponseSchema,
    {
      success: true,
      message: batchStartedMessage(2),
      batchId: ids.batch,
      total: 2,
      creditsReserved: 2,
      remainingCredits: 20,
      status: 'queued',
    },
  ],
  [batchProgressSchema, progress],
  [
    listBatchesResponseSchema,
    [{ ...progress, status: 'processing', completed: 1, failed: 0, finishedAt: null, failures: [] }],
  ],
  [regenerateAltTextRequestSchema, { chatGptPrompt: 'Mention the colour first', language: 'en' }],
  [
    regenerateAltTextResponseSchema,
    {
      success: true,
      image: { id: ids.image, src: libraryImage.src, alt_text: 'Red running shoe in leather, white laces' },
      remainingCredits: 19,
    },
  ],
  [
    importCsvResponseSchema,
    {
      success: true,
      batchId: ids.batch,
      accepted: 998,
      duplicates: 1,
      rejected: [{ line: 7, reason: 'image_url must be an http or https URL' }],
      rejectedTotal: 1,
      creditsReserved: 998,
      remainingCredits: 2,
    },
  ],
  [libraryImageSchema, libraryImage],
  [listLibraryImagesResponseSchema, [libraryImage]],
  [
    editAltTextRequestSchema,
    {
      alt_text: 'Bar chart: visitors per month, January to June',
      longDescription: 'Visitors per month. January: 1,200; February: 1,450; March: 1,800; April: 2,100.',
    },
  ],
  [deleteLibraryImagesRequestSchema, { ids: [ids.image, ids.image2] }],
  [imagesWithAltRequestSchema, { ids: [ids.image, ids.image2] }],
  [deleteLibraryImagesResponseSchema, { success: true, deleted: 2 }],
  // studio
  [
    editImageResponseSchema,
    {
      success: true,
      editedImage: { url: '/files/3f2b8c1e/edited-image.png' },
      creditsCharged: 1,
      remainingCredits: 21,
      operations: ['grayscale', 'crop to square'],
      ...engine,
    },
  ],
  [
    generateImagesRequestSchema,
    { prompt: 'Spring sale: 20% off running shoes', numberOfImages: 1, quality: 'medium' },
  ],
  [
    generateImagesResponseSchema,
    {
      success: true,
      images: [{ url: '/files/3f2b8c1e/generated-1.png' }],
      creditsCharged: 1,
      remainingCredits: 21,
      typographic: true,
      notice: 'The offline engine renders text slides.',
      ...engine,
    },
  ],
  [
    styledCaptionResponseSchema,
    {
      success: true,
      captionedImage: { url: '/files/3f2b8c1e/captioned.png' },
      caption: 'Red leather running shoe',
      creditsCharged: 1,
      remainingCredits: 21,
      ...engine,
    },
  ],
  // multipart forms: a file part's example is the name of the file sent in it
  [
    uploadAndGenerateFormSchema,
    { images: ['red-shoe.jpg', 'blue-shoe.png'], language: 'en', keywords: 'running shoe;leather' },
  ],
  [importCsvFormSchema, { file: 'images.csv', language: 'de' }],
  [editImageFormSchema, { image: 'red-shoe.jpg', prompt: 'black and white, crop to square', quality: 'low' }],
  [styledCaptionFormSchema, { image: 'red-shoe.jpg', prompt: 'playful' }],
  [
    createReelFormSchema,
    {
      audioFile: 'music.mp3',
      images: ['red-shoe.jpg', '/files/3f2b8c1e/captioned.png'],
      skipCaptioning: 'true',
    },
  ],
  // audits
  [
    startAuditRequestSchema,
    { url: 'https://shop.example.com/', scope: 'site', maxPages: 25, render: 'auto' },
  ],
  [startAuditResponseSchema, { id: ids.audit }],
  [
    auditSchema,
    {
      ...audit,
      pages: [
        { url: 'https://shop.example.com/', status: 'scanned', rendered: false },
        { url: 'https://shop.example.com/shoes', status: 'scanned', rendered: true },
      ],
    },
  ],
  [listAuditsResponseSchema, [audit]],
  [auditImagesResponseSchema, { items: [auditImage], total: 18 }],
  [
    auditPagesResponseSchema,
    {
      items: [
        {
          id: ids.auditPage,
          url: 'https://shop.example.com/shoes',
          status: 'scanned',
          note: null,
          images: 12,
          hiddenImages: 2,
          rendered: false,
        },
      ],
    },
  ],
  [
    pageAnnouncementsResponseSchema,
    {
      pageId: ids.auditPage,
      url: 'https://shop.example.com/shoes',
      items: [
        { role: 'heading', name: 'Shoes', spoken: 'heading level 1, Shoes', level: 1, flags: [] },
        {
          role: 'link',
          name: 'Red running shoe',
          spoken: 'link, image, Red running shoe',
          href: 'https://shop.example.com/shoes/red',
          image: true,
          flags: [],
        },
        {
          role: 'link',
          name: 'Red running shoe',
          spoken: 'link, Red running shoe',
          href: 'https://shop.example.com/shoes/red',
          flags: [
            {
              kind: 'redundant',
              message:
                'It goes to the same address as the image link “Red running shoe” just before it, so screen readers announce two links where one would do.',
            },
          ],
        },
      ],
      truncated: false,
      hiddenImages: 2,
      redundant: 1,
      verbose: 0,
    },
  ],
  [fixAuditRequestSchema, { imageIds: [ids.auditImage] }],
  [
    fixAuditResponseSchema,
    { batchId: ids.batch, images: [ids.auditImage], creditsReserved: 1, remainingCredits: 21, remaining: 17 },
  ],
  [reviewAuditRequestSchema, { imageIds: [ids.auditImage], action: 'accept' }],
  [
    reviewAuditResponseSchema,
    {
      items: [{ ...auditImage, reviewState: 'accepted', origin: 'ai-reviewed' }],
      reviews: { pending: 17, accepted: 1, rejected: 0, edited: 0 },
    },
  ],
  // monitors
  [
    createMonitorRequestSchema,
    { url: 'https://shop.example.com/', scope: 'site', maxPages: 25, render: 'always', every: 'day' },
  ],
  [
    monitorSchema,
    {
      ...monitor,
      history: [],
      lastRun: {
        ...monitorRun,
        id: ids.monitorRun,
        auditId: ids.audit,
        status: 'queued',
        score: null,
        startedAt: createdAt,
        finishedAt: null,
        difference: null,
      },
      nextRunAt: '2026-11-24T09:30:00.000Z',
      lastDifference: null,
    },
  ],
  [listMonitorsResponseSchema, [monitor]],
  [
    monitorDetailSchema,
    {
      ...monitor,
      runs: [
        monitorRun,
        {
          ...monitorRun,
          id: ids.monitorRun,
          auditId: ids.audit,
          score: 0.82,
          startedAt: createdAt,
          finishedAt,
          difference: null,
        },
      ],
    },
  ],
  // integrations
  [
    connectWordPressRequestSchema,
    {
      siteUrl: 'https://blog.example.com',
      username: 'editor',
      applicationPassword: 'abcd EFGH ijkl MNOP qrst UVWX',
    },
  ],
  [integrationSummarySchema, wordpressSite],
  [listIntegrationsResponseSchema, [wordpressSite]],
  [
    integrationSchema,
    {
      ...wordpressSite,
      status: 'imported',
      mediaCount: 240,
      imported: 240,
      placements: 315,
      auditId: ids.audit,
      lastImportAt: finishedAt,
      error:
        'WordPress at blog.example.com does not let this user do this (HTTP 403) while reading “Our new office”. The user needs to be allowed to edit media and posts (an Editor or Administrator). WordPress said: “Sorry, you are not allowed to edit this post.”',
      notice: 'Published 12 alt texts to blog.example.com.',
      progress: { written: 12, failed: 1, total: 13, startedAt: createdAt, etaSeconds: null },
      failures: [
        {
          mediaId: 118,
          postId: 42,
          message:
            'WordPress at blog.example.com does not let this user do this (HTTP 403) while reading “Our new office”. The user needs to be allowed to edit media and posts (an Editor or Administrator). WordPress said: “Sorry, you are not allowed to edit this post.”',
        },
      ],
    },
  ],
  [startIntegrationJobResponseSchema, { id: ids.integration, status: 'publishing' }],
  [publishRequestSchema, { imageIds: [ids.auditImage] }],
  [
    publishPreviewResponseSchema,
    {
      items: [
        {
          imageId: ids.auditImage,
          mediaId: 12,
          fileName: 'harbour.jpg',
          src: 'https://blog.example.com/wp-content/uploads/harbour.jpg',
          postId: 41,
          postTitle: 'A morning at the harbour',
          field: 'content',
          before: '',
          after: 'Fishing boats moored in the harbour at sunrise',
        },
      ],
      heldBack: [],
      unchanged: 0,
    },
  ],
  [undoRequestSchema, { changeIds: [ids.change] }],
  [
    listChangesResponseSchema,
    [
      {
        id: ids.change,
        mediaId: 812,
        postId: 1204,
        postTitle: 'Our new running shoes',
        fileName: 'red-shoe.jpg',
        src: 'https://shop.example.com/wp-content/uploads/2026/11/red-shoe.jpg',
        thumbnailUrl:
          'https://altwise.example.com/files/previews/2026-11/4c8e2a1d-7b3f-4e9a-a6d5-1f0b2c3e4d5a.webp',
        field: 'content',
        before: 'IMG_2041.jpg',
        after: 'Red leather running shoe seen from the side',
        publishedAt: finishedAt,
      },
    ],
  ],
];

let registered = false;

/** Attaches every example to its schema in zod's global registry (what the OpenAPI generator reads). */
export function registerOpenApiExamples(): void {
  if (registered) return;
  registered = true;
  for (const [schema, example] of openApiExamples) {
    z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), examples: [example] });
  }
}
