/** The widths the image endpoint renders (GET /api/products/:code/image?w=). */
export const IMAGE_WIDTHS = [160, 320, 640] as const;

/** Adds the width to an image URL that already carries its content hash (…/image?v=abc → …&w=320). */
export function sizedImageUrl(url: string, width: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}w=${width}`;
}

/**
 * A product photo with srcset/sizes so a phone downloads a small file; 'Sin imagen' when there is none.
 * Width and height are set so the page does not jump while images load.
 */
export function ProductImage({
  url,
  alt,
  sizes,
  lazy = true,
  className = '',
  fallbackWidth = 320,
}: {
  url: string | null;
  alt: string;
  sizes: string;
  lazy?: boolean;
  className?: string;
  fallbackWidth?: (typeof IMAGE_WIDTHS)[number];
}) {
  if (!url) {
    return (
      <div
        className={`flex aspect-square w-full items-center justify-center bg-slate-100 text-sm font-medium text-slate-600 ${className}`}
      >
        Sin imagen
      </div>
    );
  }
  return (
    <img
      src={sizedImageUrl(url, fallbackWidth)}
      srcSet={IMAGE_WIDTHS.map((w) => `${sizedImageUrl(url, w)} ${w}w`).join(', ')}
      sizes={sizes}
      width={fallbackWidth}
      height={fallbackWidth}
      alt={alt}
      loading={lazy ? 'lazy' : 'eager'}
      // An eager image is above the fold: the product photo (the LCP element) or a first listing card.
      fetchPriority={lazy ? 'auto' : 'high'}
      // Its paint is reported to the boot script, which starts the JavaScript after it (src/server/spa/boot-script.ts).
      elementtiming={lazy ? undefined : 'foto-principal'}
      decoding="async"
      className={`aspect-square w-full bg-white object-contain ${className}`}
    />
  );
}
