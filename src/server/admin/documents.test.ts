import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  createStaff,
  type Shopper,
} from '../../../tests/server/support/staff.ts';
import type { ProductDetail } from '../../shared/schemas/catalog.ts';
import type { ProductDocuments } from '../../shared/schemas/documents-admin.ts';
import { CLI_ACTOR } from '../audit/log.ts';
import { importCatalogue } from './import/importer.ts';

/**
 * Safety and quality documents (decision 028): the family's HDS and its certificates of analysis per lot —
 * uploads judged by their bytes, shared by the presentations, downloaded with their headers, found by lot.
 */
let t: CheckoutTestApp;
let staff: Shopper;
let shopper: Shopper;

/** A real one-page PDF (pdf-lib), different for each `text`. */
async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]).drawText(text, { x: 50, y: 700 });
  return Buffer.from(await doc.save());
}
const b64 = (data: Buffer) => data.toString('base64');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

const HEADER = 'code,name,group,price,stock,family,presentation,cas_number,formula';
const importCsv = (lines: string[], media?: { hds?: string }, strict = false) =>
  importCatalogue(t.db, new TextEncoder().encode([HEADER, ...lines].join('\n')), {
    filename: 'hds.csv',
    dryRun: false,
    strict,
    actor: CLI_ACTOR,
    ...(media ? { media } : {}),
  });

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { cookie: staff.cookie }, ...(payload ? { payload } : {}) });
const documentsOf = async (code: string) =>
  (await call('GET', `/api/admin/products/${code}/documents`)).json<ProductDocuments>();
const detail = async (code: string) => (await t.app.inject(`/api/products/${code}`)).json<ProductDetail>();
const stored = async () =>
  (
    await t.db.execute<{ n: number }>(
      sql`select (select count(*) from product_safety_sheets)::int + (select count(*) from lot_certificates)::int as n`,
    )
  ).rows[0]!.n;

beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
  shopper = await createShopper(t);
  const report = await importCsv([
    'ACE-1L,Acetona grado ACS,REA-SOL,310.00,8,,1 L,67-64-1,C3H6O',
    'ACE-4L,Acetona grado ACS,REA-SOL,990.00,3,ACE-1L,4 L,67-64-1,C3H6O',
    'MET-1L,Metanol grado HPLC,REA-SOL,520.00,5,,1 L,67-56-1,CH3OH',
  ]);
  expect(report.rejected).toEqual([]);
}, 120_000);
afterAll(() => t.close());

describe('HDS upload', () => {
  it('refuses what is not a PDF that opens, empty or too big: 400 naming the HDS, nothing stored', async () => {
    const before = await stored();
    const cases: [string, string | RegExp][] = [
      [b64(PNG), 'La hoja de datos de seguridad (HDS) no es un PDF'],
      [
        b64(Buffer.from('%PDF-1.7\nesto no es un PDF de verdad')),
        'La hoja de datos de seguridad (HDS) es un PDF dañado o incompleto',
      ],
      ['', 'Falta la hoja de datos de seguridad (PDF)'],
      [
        b64(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(10 * 1024 * 1024)])),
        /^La hoja de datos de seguridad \(HDS\) pesa 10\.00 MB; el límite es 10 MB$/,
      ],
    ];
    for (const [contentBase64, message] of cases) {
      const res = await call('PUT', '/api/admin/products/ACE-1L/hds', { contentBase64 });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(message);
      expect(res.json().error.fields.contentBase64).toBeTruthy();
    }
    expect(await stored()).toBe(before);
    expect((await detail('ACE-1L')).safetySheetUrl).toBeNull();
  });

  it('only staff upload (a shopper gets 403)', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/products/ACE-1L/hds',
      headers: { cookie: shopper.cookie },
      payload: { contentBase64: b64(await pdf('HDS')) },
    });
    expect(res.statusCode).toBe(403);
  });

  it('uploaded on a presentation, it is the family’s: every presentation downloads it with its headers', async () => {
    const sheet = await pdf('HDS acetona v1');
    const res = await call('PUT', '/api/admin/products/ACE-4L/hds', { contentBase64: b64(sheet) });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Hoja de datos de seguridad guardada (compartida por la familia ACE-1L)');
    expect(res.json().documents).toMatchObject({ familyCode: 'ACE-1L', hds: { bytes: sheet.length } });

    const base = await detail('ACE-1L');
    const fourLitres = await detail('ACE-4L');
    expect(base.safetySheetUrl).toMatch(/^\/api\/products\/ACE-1L\/hds\.pdf\?v=[0-9a-f]{16}$/);
    expect(fourLitres.safetySheetUrl).toMatch(/^\/api\/products\/ACE-4L\/hds\.pdf\?v=/);
    expect((await detail('MET-1L')).safetySheetUrl).toBeNull();

    const download = await t.app.inject(fourLitres.safetySheetUrl!);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe('attachment; filename="HDS-ACE-4L.pdf"');
    expect(download.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(download.rawPayload.equals(sheet)).toBe(true);
    const etag = String(download.headers.etag);
    const unversioned = await t.app.inject('/api/products/ACE-4L/hds.pdf');
    expect(unversioned.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const again = await t.app.inject({
      url: '/api/products/ACE-4L/hds.pdf',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const none = await t.app.inject('/api/products/MET-1L/hds.pdf');
    expect(none.statusCode).toBe(404);
    expect(none.json().error.message).toBe('Este producto no tiene hoja de datos de seguridad (HDS)');
  });

  it('replaced and removed by staff, audited under the family', async () => {
    const first = (await detail('ACE-1L')).safetySheetUrl;
    const replaced = await call('PUT', '/api/admin/products/ACE-1L/hds', {
      contentBase64: b64(await pdf('HDS acetona v2')),
    });
    expect(replaced.json().message).toBe('Hoja de datos de seguridad guardada');
    expect((await detail('ACE-1L')).safetySheetUrl).not.toBe(first);
    const removed = await call('DELETE', '/api/admin/products/ACE-4L/hds');
    expect(removed.statusCode).toBe(200);
    expect(removed.json().documents.hds).toBeNull();
    expect((await t.app.inject('/api/products/ACE-1L/hds.pdf')).statusCode).toBe(404);
    expect((await call('DELETE', '/api/admin/products/ACE-1L/hds')).statusCode).toBe(404);
    const audit = await auditRows(t, 'product', 'ACE-1L');
    expect(audit.map((a) => a.action).filter((a) => a.startsWith('product.hds'))).toEqual([
      'product.hds',
      'product.hds',
      'product.hds_remove',
    ]);
  });
});

describe('certificates of analysis', () => {
  const LOT = 'SH2025/0417-A';
  let coa: Buffer;

  it('staff upload one per lot; bad lots, dates and files are refused naming the field, nothing stored', async () => {
    coa = await pdf('CoA SH2025/0417-A');
    const before = await stored();
    const bad: [Record<string, unknown>, string, string][] = [
      [{ lot: '' }, 'lot', 'Escriba el número de lote'],
      [{ lot: 'A'.repeat(41) }, 'lot', 'El número de lote tiene más de 40 caracteres'],
      [
        { lot: 'Lóte 1' },
        'lot',
        'El número de lote solo admite letras sin acentos, números y signos imprimibles (- / . _)',
      ],
      [
        { lot: 'L1\u0007' },
        'lot',
        'El número de lote solo admite letras sin acentos, números y signos imprimibles (- / . _)',
      ],
      [
        { analysisDate: '2025-02-30' },
        'analysisDate',
        'Fecha de análisis: escriba una fecha válida (AAAA-MM-DD)',
      ],
      [
        { analysisDate: '2025-04-17', expiryDate: '2025-04-01' },
        'expiryDate',
        'La fecha de caducidad debe ser posterior a la de análisis',
      ],
      [{ contentBase64: b64(PNG) }, 'contentBase64', 'El certificado de análisis no es un PDF'],
      [{ contentBase64: '' }, 'contentBase64', 'Falta el certificado de análisis (PDF)'],
    ];
    for (const [change, field, message] of bad) {
      const res = await call('POST', '/api/admin/products/ACE-4L/certificates', {
        lot: LOT,
        contentBase64: b64(coa),
        ...change,
      });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().error.fields[field], JSON.stringify(change)).toBe(message);
    }
    expect(await stored()).toBe(before);

    const ok = await call('POST', '/api/admin/products/ACE-4L/certificates', {
      lot: `  ${LOT} `,
      analysisDate: '2025-04-17',
      expiryDate: '2028-04-17',
      contentBase64: b64(coa),
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().message).toBe(`Certificado del lote ${LOT} guardado`);
    expect(ok.json().documents.certificates).toMatchObject([
      {
        lot: LOT,
        analysisDate: '2025-04-17',
        expiryDate: '2028-04-17',
        bytes: coa.length,
        uploadedBy: expect.any(String),
      },
    ]);

    const dup = await call('POST', '/api/admin/products/ACE-1L/certificates', {
      lot: LOT.toLowerCase(),
      contentBase64: b64(await pdf('otro')),
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.message).toBe(
      `Número de lote: el lote «${LOT}» ya tiene certificado en este producto; elimínelo antes de subir otro`,
    );
    // The same lot number of another product is another lot.
    const other = await call('POST', '/api/admin/products/MET-1L/certificates', {
      lot: LOT,
      contentBase64: b64(await pdf('metanol')),
    });
    expect(other.statusCode).toBe(201);
  });

  it('the product page lists the lots; a buyer finds one by its number (any case) and downloads it', async () => {
    const page = await detail('ACE-1L');
    expect(page.certificateCount).toBe(1);
    expect(page.certificates).toEqual([
      {
        lot: LOT,
        analysisDate: '2025-04-17',
        expiryDate: '2028-04-17',
        url: expect.stringMatching(
          /^\/api\/products\/ACE-1L\/certificate\.pdf\?lot=SH2025%2F0417-A&v=[0-9a-f]{16}$/,
        ),
      },
    ]);

    const found = await t.app.inject(
      `/api/products/ACE-4L/certificate?lot=${encodeURIComponent(' sh2025/0417-a ')}`,
    );
    expect(found.statusCode).toBe(200);
    const { certificate } = found.json();
    expect(certificate.lot).toBe(LOT);
    const download = await t.app.inject(certificate.url);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(
      'attachment; filename="CoA-ACE-4L-SH2025_0417-A.pdf"',
    );
    expect(download.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(download.headers.etag).toMatch(/^"[0-9a-f]{16}"$/);
    expect(download.rawPayload.equals(coa)).toBe(true);

    const unknown = await t.app.inject('/api/products/ACE-1L/certificate?lot=SH2025-0417');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(
      'No encontramos un certificado de análisis del lote «SH2025-0417» para este producto. Revise el número en la etiqueta del frasco o escríbanos para solicitarlo.',
    );
    const badLot = await t.app.inject(`/api/products/ACE-1L/certificate?lot=${'9'.repeat(41)}`);
    expect(badLot.statusCode).toBe(400);
    expect(badLot.json().error.message).toBe('El número de lote tiene más de 40 caracteres');
    // Metanol's certificate of the same lot number is not acetona's.
    const metanol = await t.app.inject(`/api/products/MET-1L/certificate.pdf?lot=${encodeURIComponent(LOT)}`);
    expect(metanol.rawPayload.equals(coa)).toBe(false);
  });

  it('an inactive product hides its documents; deleting a certificate takes it off the page', async () => {
    const { certificates } = await documentsOf('ACE-1L');
    const removed = await call('DELETE', `/api/admin/products/ACE-1L/certificates/${certificates[0]!.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().documents.certificates).toEqual([]);
    expect((await detail('ACE-1L')).certificateCount).toBe(0);
    expect((await t.app.inject(`/api/products/ACE-1L/certificate?lot=${LOT}`)).statusCode).toBe(404);
    expect(
      (await call('DELETE', `/api/admin/products/ACE-1L/certificates/${certificates[0]!.id}`)).statusCode,
    ).toBe(404);

    await call('POST', '/api/admin/products/MET-1L/active', { active: false });
    const hidden = await t.app.inject(`/api/products/MET-1L/certificate?lot=${encodeURIComponent(LOT)}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error.message).toBe('Producto no encontrado');
    await call('POST', '/api/admin/products/MET-1L/active', { active: true });
  });

  it('the page lists the newest 12 lots and counts them all', async () => {
    for (let i = 1; i <= 13; i++) {
      const res = await call('POST', '/api/admin/products/ACE-1L/certificates', {
        lot: `L${String(i).padStart(3, '0')}`,
        contentBase64: b64(await pdf(`lote ${i}`)),
      });
      expect(res.statusCode).toBe(201);
    }
    const page = await detail('ACE-4L');
    expect(page.certificateCount).toBe(13);
    expect(page.certificates.map((c) => c.lot)).toEqual(
      Array.from({ length: 12 }, (_, i) => `L${String(13 - i).padStart(3, '0')}`),
    );
  });
});

describe('uploaded PDFs are read as PDFs; active content is refused; downloads are sandboxed (issue 37, item 13)', () => {
  /** A real PDF that also carries `harm` (pdf-lib, saved with object streams unless told). */
  async function pdfWith(harm: (doc: PDFDocument) => void | Promise<void>, useObjectStreams = true) {
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]).drawText('HDS', { x: 50, y: 700 });
    await harm(doc);
    return Buffer.from(await doc.save({ useObjectStreams }));
  }
  const jsAction = (doc: PDFDocument) =>
    doc.context.register(
      doc.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert(1)') }),
    );

  it('refuses an HTML page with «%PDF-» in its first KB, a PDF cut off before its trailer, and names why', async () => {
    const before = await stored();
    const real = await pdf('HDS real');
    // A polyglot: an HTML page whose comment holds a whole PDF (the old check looked for '%PDF-' in the first KB).
    const html = Buffer.concat([
      Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script><!--\n'),
      real,
      Buffer.from('\n--></body></html>'),
    ]);
    const cut = real.subarray(0, real.lastIndexOf('%%EOF'));
    for (const [bytes, message] of [
      [html, `${'La hoja de datos de seguridad (HDS)'} no es un PDF`],
      [cut, 'La hoja de datos de seguridad (HDS) es un PDF dañado o incompleto'],
    ] as const) {
      const res = await call('PUT', '/api/admin/products/MET-1L/hds', { contentBase64: b64(bytes) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.contentBase64).toBe(message);
    }
    const datasheet = await call('PUT', '/api/admin/products/MET-1L/datasheet', { contentBase64: b64(html) });
    expect(datasheet.statusCode).toBe(400);
    expect(datasheet.json().error.message).toBe('La ficha técnica no es un PDF');
    expect(await stored()).toBe(before);
  });

  it('refuses JavaScript (on opening, with escaped names, in an object stream), /Launch, /AA and embedded files', async () => {
    const before = await stored();
    const cases: [string, Buffer, string][] = [
      [
        '/OpenAction JavaScript',
        await pdfWith((doc) => doc.catalog.set(PDFName.of('OpenAction'), jsAction(doc)), false),
        'JavaScript',
      ],
      [
        'JavaScript written with escaped names (/J#53 is /JS), uncompressed',
        await (async () => {
          const bytes = await pdfWith(
            (doc) => doc.catalog.set(PDFName.of('OpenAction'), jsAction(doc)),
            false,
          );
          // Same length in all (the cross-reference offsets stay right): +1 byte, then −1 byte.
          const text = bytes
            .toString('latin1')
            .replace('/S /JavaScript', '/S /Jav#61Script')
            .replace('/JS (app.alert(1))', '/J#53(app.alert1)')
            .replace('/Type /Action', '/Type/Action');
          expect(text).toContain('/J#53');
          expect(text.length).toBe(bytes.length);
          return Buffer.from(text, 'latin1');
        })(),
        'JavaScript',
      ],
      [
        'JavaScript in the names tree, inside a compressed object stream',
        await pdfWith((doc) => {
          const names = doc.context.obj({
            JavaScript: doc.context.obj({ Names: [PDFString.of('x'), jsAction(doc)] }),
          });
          doc.catalog.set(PDFName.of('Names'), doc.context.register(names));
        }),
        'JavaScript',
      ],
      [
        'a /Launch action on a page’s link',
        await pdfWith((doc) => {
          const page = doc.getPage(0);
          const link = doc.context.obj({
            Type: 'Annot',
            Subtype: 'Link',
            Rect: [0, 0, 100, 100],
            A: { S: 'Launch', F: PDFString.of('calc.exe') },
          });
          page.node.set(PDFName.of('Annots'), doc.context.obj([doc.context.register(link)]));
        }),
        'acciones que abren programas (/Launch)',
      ],
      [
        'automatic actions (/AA) on a page',
        await pdfWith((doc) =>
          doc.getPage(0).node.set(PDFName.of('AA'), doc.context.obj({ O: jsAction(doc) })),
        ),
        'acciones automáticas (/AA)',
      ],
      [
        'an embedded file',
        await pdfWith((doc) =>
          doc.attach(Buffer.from('MZ'), 'setup.exe', { mimeType: 'application/octet-stream' }),
        ),
        'archivos incrustados',
      ],
    ];
    for (const [label, bytes, what] of cases) {
      const hds = await call('PUT', '/api/admin/products/MET-1L/hds', { contentBase64: b64(bytes) });
      expect(hds.statusCode, label).toBe(400);
      expect(hds.json().error.message, label).toMatch(
        /^La hoja de datos de seguridad \(HDS\) contiene .*que no aceptamos por seguridad/,
      );
      expect(hds.json().error.message, label).toContain(what);
      const coa = await call('POST', '/api/admin/products/MET-1L/certificates', {
        lot: 'SEC-1',
        contentBase64: b64(bytes),
      });
      expect(coa.statusCode, label).toBe(400);
      expect(coa.json().error.fields.contentBase64, label).toContain(what);
    }
    expect(await stored()).toBe(before);
    // A plain link to a web page is not active content.
    const linked = await pdfWith((doc) => {
      const link = doc.context.obj({
        Type: 'Annot',
        Subtype: 'Link',
        Rect: [0, 0, 100, 100],
        A: { S: 'URI', URI: PDFString.of('https://example.com/') },
      });
      doc.getPage(0).node.set(PDFName.of('Annots'), doc.context.obj([doc.context.register(link)]));
    });
    expect(
      (await call('PUT', '/api/admin/products/MET-1L/hds', { contentBase64: b64(linked) })).statusCode,
    ).toBe(200);
    expect((await call('DELETE', '/api/admin/products/MET-1L/hds')).statusCode).toBe(200);
  });

  it('every download is an attachment in a sandbox; a stored datasheet that is not a PDF is never shown inline', async () => {
    const sheet = await pdf('HDS metanol');
    expect(
      (await call('PUT', '/api/admin/products/MET-1L/hds', { contentBase64: b64(sheet) })).statusCode,
    ).toBe(200);
    const hds = await t.app.inject('/api/products/MET-1L/hds.pdf');
    expect(hds.statusCode).toBe(200);
    expect(hds.headers['content-disposition']).toBe('attachment; filename="HDS-MET-1L.pdf"');
    expect(String(hds.headers['content-security-policy'])).toMatch(/^sandbox(;|$)/);
    expect(
      (
        await call('POST', '/api/admin/products/MET-1L/certificates', {
          lot: 'SEC-2',
          contentBase64: b64(sheet),
        })
      ).statusCode,
    ).toBe(201);
    const coa = await t.app.inject('/api/products/MET-1L/certificate.pdf?lot=SEC-2');
    expect(coa.statusCode).toBe(200);
    expect(coa.headers['content-disposition']).toBe('attachment; filename="CoA-MET-1L-SEC-2.pdf"');
    expect(String(coa.headers['content-security-policy'])).toMatch(/^sandbox(;|$)/);

    // An HTML file stored as a datasheet before these checks: a sandboxed download, not a page in the shop's origin.
    await t.db.execute(
      sql`update products set datasheet = ${Buffer.from('<html><!-- %PDF-1.4 --><script>alert(1)</script></html>')},
          datasheet_hash = 'legacy' where code = 'MET-1L'`,
    );
    const legacy = await t.app.inject('/api/products/MET-1L/datasheet.pdf');
    expect(legacy.statusCode).toBe(200);
    expect(legacy.headers['content-disposition']).toMatch(/^attachment;/);
    expect(String(legacy.headers['content-security-policy'])).toMatch(/^sandbox(;|$)/);
    // A real one is still shown in the product page's frame.
    expect(
      (await call('PUT', '/api/admin/products/MET-1L/datasheet', { contentBase64: b64(sheet) })).statusCode,
    ).toBe(200);
    const real = await t.app.inject('/api/products/MET-1L/datasheet.pdf');
    expect(real.headers['content-disposition']).toBe('inline; filename="MET-1L.pdf"');
    expect(real.headers['content-security-policy']).toBe("frame-ancestors 'self'");
  });
});

describe('HDS in the command-line import (--hds)', () => {
  it('lands with its row; a presentation’s HDS file, a file that is not a PDF: the row is refused naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hds-'));
    mkdirSync(join(dir, 'hds'));
    const sheet = await pdf('HDS etanol');
    writeFileSync(join(dir, 'hds', 'ETA-1L.pdf'), sheet);
    writeFileSync(join(dir, 'hds', 'eta-4l.pdf'), await pdf('HDS de una presentación'));
    writeFileSync(join(dir, 'hds', 'ETA-20L.pdf'), PNG);
    const report = await importCsv(
      [
        'ETA-1L,Etanol absoluto,REA-SOL,280.00,4,,1 L,64-17-5,C2H5OH',
        'ETA-4L,Etanol absoluto,REA-SOL,900.00,2,ETA-1L,4 L,64-17-5,C2H5OH',
        'ETA-20L,Etanol industrial,REA-SOL,3000.00,1,,20 L,64-17-5,C2H5OH',
      ],
      { hds: join(dir, 'hds') },
    );
    expect(report.rejected).toEqual([
      {
        line: 3,
        code: 'ETA-4L',
        reasons: [
          'HDS eta-4l.pdf: la comparten las presentaciones de la familia; nombre el archivo con el código de la base «ETA-1L»',
        ],
      },
      { line: 4, code: 'ETA-20L', reasons: ['HDS ETA-20L.pdf: La hoja de datos de seguridad no es un PDF'] },
    ]);
    const page = await detail('ETA-1L');
    expect((await t.app.inject(page.safetySheetUrl!)).rawPayload.equals(sheet)).toBe(true);
    expect((await t.app.inject('/api/products/ETA-4L')).statusCode).toBe(404);

    // The same file again: unchanged; a new HDS alone makes the row 'updated' with the field named.
    expect(
      (
        await importCsv(['ETA-1L,Etanol absoluto,REA-SOL,280.00,4,,1 L,64-17-5,C2H5OH'], {
          hds: join(dir, 'hds'),
        })
      ).unchanged,
    ).toBe(1);
    writeFileSync(join(dir, 'hds', 'ETA-1L.pdf'), await pdf('HDS etanol, revisión 2'));
    const updated = await importCsv(['ETA-1L,Etanol absoluto,REA-SOL,280.00,4,,1 L,64-17-5,C2H5OH'], {
      hds: join(dir, 'hds'),
    });
    expect(updated.changes).toEqual([{ line: 2, code: 'ETA-1L', kind: 'updated', fields: ['hds'] }]);
  });

  it('strict: one refused HDS imports nothing, HDS included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hds-strict-'));
    writeFileSync(join(dir, 'PRO-1L.pdf'), await pdf('HDS propanol'));
    writeFileSync(join(dir, 'BUT-1L.pdf'), Buffer.from('%PDF-1.4 roto'));
    const before = await stored();
    const report = await importCsv(
      [
        'PRO-1L,Propanol,REA-SOL,300.00,1,,1 L,71-23-8,C3H7OH',
        'BUT-1L,Butanol,REA-SOL,300.00,1,,1 L,71-36-3,C4H9OH',
      ],
      { hds: dir },
      true,
    );
    expect(report.rejected).toEqual([
      {
        line: 3,
        code: 'BUT-1L',
        reasons: ['HDS BUT-1L.pdf: La hoja de datos de seguridad es un PDF dañado o incompleto'],
      },
    ]);
    expect(report.created).toBe(0);
    expect(await stored()).toBe(before);
    expect((await t.app.inject('/api/products/PRO-1L')).statusCode).toBe(404);
  });
});
