// renderHtmlToPdf against the local Browser Rendering binding: what the sandbox lets a document load.
import { describe, expect, it } from 'vitest';
import { renderHtmlToPdf } from '../../../src/services/rendering/html-to-pdf';
import { closeBrowser, openBrowser } from '../../../src/services/rendering/sandboxed-page';
import { recorderPath, testLauncher } from '../../rendering-fixtures';

async function render(html: string, footer?: string) {
  const browser = await openBrowser(testLauncher(), 'request');
  try {
    return await renderHtmlToPdf(browser, { html, footer, size: 'A4' });
  } finally {
    await closeBrowser(browser);
  }
}

describe('renderHtmlToPdf', { timeout: 60_000 }, () => {
  it('aborts every remote stylesheet, font, image, frame and object, and none reaches its server', async () => {
    const recorder = recorderPath('hostile');
    const urls = ['style.css', 'font.woff', 'background.png', 'image.png', 'frame.html', 'object'].map((name) => `${recorder.url}/${name}`);
    const [css, font, background, image, frame, object] = urls;
    const { pdf, blocked } = await render(
      `<link rel="stylesheet" href="${css}"><style>@font-face{font-family:x;src:url(${font})} p{font-family:x}</style>` +
        `<p style="background:url(${background})">text</p><img src="${image}"><iframe src="${frame}"></iframe><object data="${object}"></object>`,
    );
    expect(pdf.byteLength).toBeGreaterThan(0);
    // Chromium may upgrade http to https on its way; either spelling counts as the same request.
    const asked = blocked.map((url) => url.replace(/^https:/, 'http:'));
    for (const url of urls) expect(asked).toContain(url);
    expect(await recorder.hits()).toEqual([]);
  });

  it('aborts requests to the render origin other than the document itself', async () => {
    const { blocked } = await render('<img src="/secret.png"><img src="other.png">');
    expect(blocked).toEqual(expect.arrayContaining(['https://render.invalid/secret.png', 'https://render.invalid/other.png']));
  });
});
