import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const google = 'https://accounts.google.com';

/**
 * Security headers and compression. The content security policy fits the built SPA (own scripts
 * and styles only), the image features (images from any https site, data: and blob: previews) and
 * Google sign-in (its script, style, iframe and popup).
 */
export const securityPlugin = fp(
  async (app: FastifyInstance, options: { https: boolean }) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'self'"],
          formAction: ["'self'"],
          scriptSrc: ["'self'", `${google}/gsi/client`],
          // React style attributes and Google's button need inline styles.
          styleSrc: ["'self'", "'unsafe-inline'", `${google}/gsi/style`],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          fontSrc: ["'self'", 'data:'],
          mediaSrc: ["'self'", 'data:', 'blob:'],
          connectSrc: ["'self'", `${google}/gsi/`],
          frameSrc: ["'self'", `${google}/gsi/`],
          workerSrc: ["'self'", 'blob:'],
          // Only behind TLS: on plain http://localhost these would break the page.
          ...(options.https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      // Google sign-in opens a popup that must be able to message back.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      strictTransportSecurity: options.https,
    });
    await app.register(compress, { global: true, threshold: 1024 });
  },
  { name: 'security' },
);
