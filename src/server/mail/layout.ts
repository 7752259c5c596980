import { escapeMarkup } from '../../shared/escape.ts';
import { shop } from '../../shared/shop.ts';

/**
 * The shop's mail layout: one function that turns a few content blocks into a branded HTML mail
 * (table layout and inline styles, as mail clients need) and its plain-text twin.
 *
 *   const { html, text } = renderMail({ title: 'Compra realizada con éxito', blocks: [...] }, publicUrl);
 */
export type MailBlock =
  | { kind: 'paragraph'; text: string }
  /** A big, spaced-out code (recovery code). */
  | { kind: 'code'; text: string }
  | { kind: 'button'; label: string; url: string }
  /** Label / value rows (order summary, address…). */
  | { kind: 'rows'; rows: [label: string, value: string][] }
  /** A small grey note. */
  | { kind: 'note'; text: string }
  /** Pre-escaped HTML for what the other blocks cannot express, with its text version. */
  | { kind: 'raw'; html: string; text: string };

export type MailContent = {
  title: string;
  /** The grey line mail clients show after the subject. */
  preheader?: string;
  greeting?: string;
  blocks: MailBlock[];
};

const BRAND = '#0b4a6f';
const BRAND_LIGHT = '#eef7fc';

function blockHtml(block: MailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="margin:0 0 16px;font-size:15px;line-height:1.6;color:#1e293b">${escapeMarkup(block.text)}</p>`;
    case 'code':
      return `<p style="margin:8px 0 24px;text-align:center"><span style="display:inline-block;padding:14px 22px;border-radius:10px;background:${BRAND_LIGHT};border:1px solid #aed8ee;font-family:'SFMono-Regular',Consolas,'Liberation Mono',monospace;font-size:28px;font-weight:700;letter-spacing:6px;color:${BRAND}">${escapeMarkup(block.text)}</span></p>`;
    case 'button':
      return `<p style="margin:8px 0 24px;text-align:center"><a href="${escapeMarkup(block.url)}" style="display:inline-block;padding:12px 24px;border-radius:8px;background:${BRAND};color:#ffffff;font-size:15px;font-weight:600;text-decoration:none">${escapeMarkup(block.label)}</a></p>`;
    case 'rows':
      return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 20px;border-collapse:collapse;font-size:14px">${block.rows
        .map(
          ([label, value]) =>
            `<tr><td style="padding:6px 12px 6px 0;color:#64748b;vertical-align:top;white-space:nowrap">${escapeMarkup(label)}</td><td style="padding:6px 0;color:#0f172a;vertical-align:top">${escapeMarkup(value)}</td></tr>`,
        )
        .join('')}</table>`;
    case 'note':
      return `<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#64748b">${escapeMarkup(block.text)}</p>`;
    case 'raw':
      return block.html;
  }
}

function blockText(block: MailBlock): string {
  switch (block.kind) {
    case 'paragraph':
    case 'note':
      return block.text;
    case 'code':
      return `    ${block.text}`;
    case 'button':
      return `${block.label}: ${block.url}`;
    case 'rows':
      return block.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
    case 'raw':
      return block.text;
  }
}

const addressLine = () =>
  `${shop.address.street}, ${shop.address.neighbourhood}, ${shop.address.postalCode} ${shop.address.city}, ${shop.address.state}`;

export function renderMail(content: MailContent, publicUrl: string): { html: string; text: string } {
  const site = publicUrl.replace(/\/$/, '');
  const greeting = content.greeting
    ? `<p style="margin:0 0 16px;font-size:15px;color:#1e293b">${escapeMarkup(content.greeting)}</p>`
    : '';
  const html = `<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeMarkup(content.title)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif">
<span style="display:none;max-height:0;overflow:hidden;opacity:0">${escapeMarkup(content.preheader ?? content.title)}</span>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9;padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden;border:1px solid #e2e8f0">
<tr><td style="background:${BRAND};padding:20px 28px">
<a href="${escapeMarkup(site)}/" style="color:#ffffff;text-decoration:none;font-size:20px;font-weight:700">${escapeMarkup(shop.tradeName)}</a>
<div style="color:#d6ecf7;font-size:12px;margin-top:2px">${escapeMarkup(shop.tagline)}</div>
</td></tr>
<tr><td style="padding:28px">
<h1 style="margin:0 0 20px;font-size:22px;line-height:1.3;color:#0f172a">${escapeMarkup(content.title)}</h1>
${greeting}${content.blocks.map(blockHtml).join('\n')}
</td></tr>
<tr><td style="padding:18px 28px;background:#f8fafc;border-top:1px solid #e2e8f0;font-size:12px;line-height:1.6;color:#64748b">
<strong style="color:#334155">${escapeMarkup(shop.legalName)}</strong><br>
${escapeMarkup(addressLine())}<br>
Tel. ${escapeMarkup(shop.phones.join(' · '))} · <a href="mailto:${escapeMarkup(shop.email)}" style="color:${BRAND}">${escapeMarkup(shop.email)}</a><br>
${escapeMarkup(shop.hours)} · <a href="${escapeMarkup(site)}/politica_de_privacidad" style="color:${BRAND}">Aviso de privacidad</a>
</td></tr>
</table>
</td></tr></table>
</body></html>`;
  const text = [
    shop.tradeName,
    '='.repeat(shop.tradeName.length),
    '',
    content.title,
    '',
    ...(content.greeting ? [content.greeting, ''] : []),
    ...content.blocks.flatMap((b) => [blockText(b), '']),
    '--',
    shop.legalName,
    addressLine(),
    `Tel. ${shop.phones.join(' · ')} · ${shop.email}`,
    shop.hours,
    `${site}/`,
  ].join('\n');
  return { html, text };
}
