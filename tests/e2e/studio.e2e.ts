import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { messages } from '@altwise/contracts/messages';
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { createSession, storeSession } from './session.ts';

const fixtures = resolve(import.meta.dirname, '../../apps/api/test/fixtures/images');
let browser: Browser;
let workDir: string;
let tone: string;

beforeAll(async () => {
  browser = await launchBrowser();
  workDir = mkdtempSync(join(tmpdir(), 'altwise-studio-e2e-'));
  // Four seconds of a 440 Hz tone: the music of the reel, made here rather than shipped.
  tone = join(workDir, 'tone.wav');
  execFileSync(ffmpeg.path, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=4',
    '-ac',
    '1',
    tone,
  ]);
});
afterAll(async () => {
  await browser?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

async function toast(page: Page, text: string) {
  await page.getByRole('region', { name: 'Notifications (top right)' }).getByText(text).first().waitFor();
}

/**
 * Closes the toasts a scan would otherwise include: the shared Toaster puts role="alert" on an <li>
 * (axe: aria-allowed-role, list), a finding reported to its owner rather than patched from here.
 */
async function dismissToasts(page: Page) {
  const buttons = page.getByRole('button', { name: 'Dismiss notification' });
  while ((await buttons.count()) > 0) await buttons.first().click();
}

/** True when every pixel's red, green and blue agree (within rounding): a greyscale picture. */
async function isGreyscale(bytes: Buffer): Promise<boolean> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels === 1) return true;
  for (let i = 0; i < data.length; i += info.channels) {
    const [r = 0, g = 0, b = 0] = [data[i], data[i + 1], data[i + 2]];
    if (Math.abs(r - g) > 2 || Math.abs(g - b) > 2) return false;
  }
  return true;
}

describe('media studio, as a person uses it', () => {
  it('edits an uploaded photo to black and white and downloads it as a PNG', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await storeSession(page, await createSession());

    await page.goto('/caption-generator');
    await page.getByRole('heading', { level: 1, name: 'AI Image Editor' }).waitFor();
    await page.getByText('Credits remaining: 25').waitFor();
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: 'Edit Image' }).click();
    await toast(page, messages.editor.selectImage);
    await dismissToasts(page);

    await page.getByLabel('Image to edit').setInputFiles(join(fixtures, 'coffee.jpg'));
    await page.getByRole('img', { name: 'Original upload: coffee.jpg' }).waitFor();
    // A new account has 25 free credits: low quality (5) leaves enough for the captions of the reel.
    await page.getByLabel('Quality').selectOption('low');
    await page.getByLabel('Edit prompt').fill('make it black and white');
    const answered = page.waitForResponse('**/api/v1/images/edit-image');
    await page.getByRole('button', { name: 'Edit Image' }).click();
    expect((await answered).status()).toBe(200);
    await toast(page, messages.editor.success);
    await page.getByRole('img', { name: /^Edited result:/ }).waitFor();
    await page.getByText('Credits remaining: 20').waitFor();
    await dismissToasts(page);
    await expectNoAxeViolations(page);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download Edited Image' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('edited-image.png');
    const saved = join(workDir, 'edited-image.png');
    await download.saveAs(saved);
    const bytes = readFileSync(saved);
    expect((await sharp(bytes).metadata()).format).toBe('png');
    expect(await isGreyscale(bytes)).toBe(true);
    // The original photo is in colour: the check above means something.
    expect(await isGreyscale(readFileSync(join(fixtures, 'coffee.jpg')))).toBe(false);
    await context.close();
  });

  it('captions two photos, and makes a reel of the captioned images with music', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await storeSession(page, await createSession());

    await page.goto('/reel-generator');
    await page.getByRole('heading', { level: 1, name: 'AI Reel Generator' }).waitFor();
    await page.getByText('Credits remaining: 25').waitFor();
    await expectNoAxeViolations(page);

    // The source is a radio pair; a person clicks its label.
    await page.getByText('Upload Images', { exact: true }).click();
    expect(await page.getByRole('radio', { name: 'Upload Images' }).isChecked()).toBe(true);
    const captionedTab = page.getByRole('tab', { name: 'Captioned Images' });
    expect(await captionedTab.isDisabled()).toBe(true);

    await page
      .getByLabel('Images', { exact: true })
      .setInputFiles([join(fixtures, 'coffee.jpg'), join(fixtures, 'chelsea.jpg')]);
    await page.getByRole('img', { name: 'Upload 2: chelsea.jpg' }).waitFor();
    await page.getByLabel('Caption prompt (optional)').fill('cheerful');
    await page.getByRole('button', { name: 'Generate Captions' }).click();
    await toast(page, messages.reel.captionsDone);
    await page.getByText('Credits remaining: 23').waitFor();
    await dismissToasts(page);
    await expectNoAxeViolations(page);

    await captionedTab.click();
    expect(await captionedTab.getAttribute('aria-selected')).toBe('true');
    await page.getByRole('img', { name: /^coffee\.jpg with the caption: / }).waitFor();
    await page.getByRole('img', { name: /^chelsea\.jpg with the caption: / }).waitFor();

    const create = page.getByRole('button', { name: 'Create & Download Reel' });
    expect(await create.isDisabled()).toBe(true);
    await page.getByLabel('Music').setInputFiles(tone);
    expect(await create.isEnabled()).toBe(true);
    await expectNoAxeViolations(page);

    const rendered = page.waitForResponse('**/api/v1/images/createReels', { timeout: 60_000 });
    const downloading = page.waitForEvent('download', { timeout: 60_000 });
    await create.click();
    const response = await rendered;
    if (response.status() !== 200)
      throw new Error(`createReels answered ${response.status()}: ${await response.text()}`);
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('reel.mp4');
    await toast(page, messages.reel.reelDone);
    const saved = join(workDir, 'reel.mp4');
    await download.saveAs(saved);
    const bytes = readFileSync(saved);
    // An ISO media file starts with its size and the 'ftyp' box.
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(bytes.length).toBeGreaterThan(10_000);
    await context.close();
  }, 120_000);

  it('generates slides from a text prompt, says they are slides, and makes a reel of them', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await storeSession(page, await createSession());

    await page.goto('/reel-generator');
    await page.getByRole('heading', { level: 1, name: 'AI Reel Generator' }).waitFor();
    await page.getByText('Credits remaining: 25').waitFor();
    await page.getByRole('button', { name: 'Generate Images' }).click();
    await toast(page, messages.reel.promptRequired);

    await page.getByLabel('Text prompt').fill('Three reasons to write alt text');
    await page.getByLabel('Number of images').selectOption('5');
    // 5 × 25 credits at the default high quality is more than a new account has.
    await page.getByRole('button', { name: 'Generate Images' }).click();
    await toast(page, messages.reel.notEnoughCredits(125, 25));

    await page.getByLabel('Number of images').selectOption('2');
    await page.getByLabel('Quality').selectOption('low');
    await page.getByRole('button', { name: 'Generate Images' }).click();
    await toast(page, messages.reel.generated(2));
    await page.getByText('Credits remaining: 15').waitFor();
    // The offline engine is honest that these are text slides, not pictures.
    await expect.poll(() => page.getByTestId('generation-notice').innerText()).toContain('text slides');
    await expect.poll(() => page.getByRole('img', { name: /^Text slide \d of 2: / }).count()).toBe(2);
    await dismissToasts(page);
    await expectNoAxeViolations(page);

    await page.getByLabel('Music').setInputFiles(tone);
    const downloading = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Create & Download Reel' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('reel.mp4');
    await toast(page, messages.reel.reelDone);
    const saved = join(workDir, 'slides-reel.mp4');
    await download.saveAs(saved);
    expect(readFileSync(saved).subarray(4, 8).toString('latin1')).toBe('ftyp');
    await context.close();
  }, 120_000);
});
