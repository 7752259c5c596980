import sanitizeHtml from 'sanitize-html';

/** Long product descriptions are HTML: only this sanitized copy is stored and rendered. */
export function sanitizeLongDescription(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'h2',
      'h3',
      'h4',
      'p',
      'br',
      'hr',
      'ul',
      'ol',
      'li',
      'strong',
      'b',
      'em',
      'i',
      'u',
      'sub',
      'sup',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'caption',
      'blockquote',
      'code',
      'pre',
      'span',
      'a',
    ],
    allowedAttributes: {
      // rel and target come from transformTags below (whatever the text said): the allowlist keeps them.
      a: ['href', 'title', 'rel', 'target'],
      th: ['scope', 'colspan', 'rowspan'],
      td: ['colspan', 'rowspan'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: {
      a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }),
    },
  });
}
