/**
 * Draws the app's icons once (`node web/build/make-icons.ts`); the PNGs are committed, so
 * builds do not need a browser. One SVG (a white rupee sign drawn as strokes, so no font is
 * needed, on the brand blue) is rendered by Debian's chromium at each size: the regular
 * icons on a rounded square, the maskable one full-bleed with the sign inside the 80 % safe
 * zone that launchers may crop to a circle.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const PUBLIC_DIR = fileURLToPath(new URL('../public/', import.meta.url));
const BRAND_BLUE = '#0b3d91';
const RUPEE_STROKES = 'M31 27H69M31 41H69M31 27H46C62 27 62 55 46 55H33L66 80';

function iconSvg(options: { maskable: boolean }): string {
  // The maskable icon keeps the sign in the central 80%; the regular one may fill more.
  const scale = options.maskable ? 0.62 : 0.8;
  const offset = (100 - 100 * scale) / 2;
  const background = options.maskable
    ? `<rect width="100" height="100" fill="${BRAND_BLUE}"/>`
    : `<rect width="100" height="100" rx="22" fill="${BRAND_BLUE}"/>`;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">',
    background,
    `<g transform="translate(${offset} ${offset}) scale(${scale})">`,
    `<path d="${RUPEE_STROKES}" fill="none" stroke="#fff" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/>`,
    '</g></svg>',
  ].join('');
}

const OUTPUTS: { file: string; size: number; maskable: boolean }[] = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'icon-maskable-512.png', size: 512, maskable: true },
  { file: 'apple-touch-icon.png', size: 180, maskable: true },
];

async function main(): Promise<void> {
  writeFileSync(join(PUBLIC_DIR, 'icon.svg'), `${iconSvg({ maskable: false })}\n`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    for (const output of OUTPUTS) {
      const page = await browser.newPage({ viewport: { width: output.size, height: output.size } });
      const svg = iconSvg({ maskable: output.maskable });
      await page.setContent(
        `<html><body style="margin:0;background:transparent">` +
          `<img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" width="${output.size}" height="${output.size}" style="display:block"></body></html>`,
      );
      await page.locator('img').evaluate((image: HTMLImageElement) => image.decode());
      await page.screenshot({ path: join(PUBLIC_DIR, output.file), omitBackground: true });
      await page.close();
      console.log(`wrote web/public/${output.file}`);
    }
  } finally {
    await browser.close();
  }
}

await main();
