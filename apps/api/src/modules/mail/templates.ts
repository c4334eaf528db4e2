import { escapeHtml } from '../../lib/html.ts';
import type { MailDraft } from './service.ts';

function layout(paragraphs: string[], link?: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const button = link
    ? `<p><a href="${escapeHtml(link.href)}" style="display:inline-block;padding:10px 16px;background:#4338ca;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>\n<p>Or open this link: <a href="${escapeHtml(link.href)}">${escapeHtml(link.href)}</a></p>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">\n${body}\n${button}\n<p>— Altwise</p></body></html>`;
}

export function confirmEmailMail(to: { email: string; firstName: string }, link: string): MailDraft {
  const lines = [
    `Hello ${to.firstName},`,
    'Thank you for signing up for Altwise. Please confirm your email address to activate your account and receive your 25 free credits.',
    'The link works once and expires in 24 hours. If you did not sign up, ignore this email.',
  ];
  return {
    kind: 'confirm-email',
    to: to.email,
    subject: 'Confirm your Altwise account',
    text: `${lines.join('\n\n')}\n\nConfirm your email: ${link}\n\n— Altwise`,
    html: layout(lines, { href: link, label: 'Confirm my email' }),
  };
}

export function resetPasswordMail(to: { email: string; firstName: string }, link: string): MailDraft {
  const lines = [
    `Hello ${to.firstName},`,
    'Someone asked to reset the password of your Altwise account. If it was you, choose a new password with the link below; it works once and expires in 1 hour.',
    'If it was not you, ignore this email: your password stays as it is.',
  ];
  return {
    kind: 'reset-password',
    to: to.email,
    subject: 'Reset your Altwise password',
    text: `${lines.join('\n\n')}\n\nReset your password: ${link}\n\n— Altwise`,
    html: layout(lines, { href: link, label: 'Choose a new password' }),
  };
}

export function welcomeMail(to: { email: string; firstName: string }, dashboardLink: string): MailDraft {
  const lines = [
    `Welcome to Altwise, ${to.firstName}!`,
    'Your account comes with 25 free credits: one credit writes alt text for one image. Scrape a web page or upload your own images to get started.',
  ];
  return {
    kind: 'welcome',
    to: to.email,
    subject: 'Welcome to Altwise',
    text: `${lines.join('\n\n')}\n\nYour dashboard: ${dashboardLink}\n\n— Altwise`,
    html: layout(lines, { href: dashboardLink, label: 'Open my dashboard' }),
  };
}

/** Single-line text for a header: no line breaks a sender could use to add headers. */
const headerText = (text: string) => text.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();

/** A contact-form message, to the support address; replying answers the sender. */
export function contactMessageMail(
  from: { firstName: string; lastName: string; email: string; message: string },
  supportEmail: string,
): MailDraft {
  const name = headerText(`${from.firstName} ${from.lastName}`);
  const intro = `${name} <${from.email}> wrote through the contact form:`;
  return {
    kind: 'contact-message',
    to: supportEmail,
    replyTo: from.email,
    subject: headerText(`Contact form: ${name}`).slice(0, 200),
    text: `${intro}\n\n${from.message}\n\nReply to this email to answer ${name}.`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">\n<p>${escapeHtml(intro)}</p>\n<blockquote style="white-space:pre-wrap;border-left:3px solid #ccc;margin:0;padding-left:12px">${escapeHtml(from.message)}</blockquote>\n<p>Reply to this email to answer ${escapeHtml(name)}.</p></body></html>`,
  };
}

const percent = (score: number | null) => (score === null ? 'no score' : `${Math.round(score * 100)} %`);
const imagesWord = (n: number) => `${n} image${n === 1 ? '' : 's'}`;

/** A monitored site's new run differs from the one before (ADR 062). */
export function monitorChangedMail(
  to: { email: string; firstName: string },
  run: {
    url: string;
    newFailures: number;
    fixed: number;
    scoreBefore: number | null;
    scoreNow: number | null;
    newFailureImages: { pageUrl: string; src: string }[];
    fixedImages: { pageUrl: string; src: string }[];
  },
  link: string,
): MailDraft {
  const site = headerText(run.url);
  const named = (title: string, images: { pageUrl: string; src: string }[], total: number) =>
    images.length === 0
      ? []
      : [
          `${title}: ${images.map((image) => `${image.src} on ${image.pageUrl}`).join('; ')}${total > images.length ? ` and ${total - images.length} more` : ''}.`,
        ];
  const lines = [
    `Hello ${to.firstName},`,
    `The latest audit of ${site} is done. Since the audit before it: ${imagesWord(run.newFailures)} newly failing, ${imagesWord(run.fixed)} fixed; the score went from ${percent(run.scoreBefore)} to ${percent(run.scoreNow)}.`,
    ...named('Newly failing', run.newFailureImages, run.newFailures),
    ...named('Fixed', run.fixedImages, run.fixed),
  ];
  return {
    kind: 'monitor-changed',
    to: to.email,
    subject: headerText(`${site}: ${run.newFailures} new failing, ${run.fixed} fixed`).slice(0, 200),
    text: `${lines.join('\n\n')}\n\nYour monitors: ${link}\n\n— Altwise`,
    html: layout(lines, { href: link, label: 'Open my monitors' }),
  };
}

/** A monitored site's run did not start (the account's audit limits...): the reason in words. */
export function monitorSkippedMail(
  to: { email: string; firstName: string },
  run: { url: string; reason: string },
  link: string,
): MailDraft {
  const site = headerText(run.url);
  const lines = [
    `Hello ${to.firstName},`,
    `The scheduled audit of ${site} did not run: ${run.reason}`,
    'It will try again at its next scheduled time.',
  ];
  return {
    kind: 'monitor-skipped',
    to: to.email,
    subject: headerText(`${site}: the scheduled audit did not run`).slice(0, 200),
    text: `${lines.join('\n\n')}\n\nYour monitors: ${link}\n\n— Altwise`,
    html: layout(lines, { href: link, label: 'Open my monitors' }),
  };
}
