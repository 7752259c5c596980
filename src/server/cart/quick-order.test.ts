import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { xlsx, zip } from '../../../tests/server/support/xlsx.ts';
import type { QuickOrderResponse } from '../../shared/schemas/quick-order.ts';
import { parseQuickOrder } from './quick-order.ts';
import { XLSX_MAX_PART_BYTES } from './xlsx.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedProducts: 120 });
  const db = t.database.db;
  await db.execute(sql`update products set stock = 50, active = true`);
  await db.execute(sql`update products set stock = 3 where code = 'LBN-10001'`);
  await db.execute(sql`update products set stock = 0 where code = 'CRX-10000'`);
  await db.execute(sql`update products set active = false where code = 'ANX-10003'`);
}, 120_000);
afterAll(() => t.close());

async function preview(body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/quick-order/preview', payload: body });
}
async function ok(body: Record<string, unknown>): Promise<QuickOrderResponse> {
  const res = await preview(body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('parseQuickOrder (how a pasted line is read)', () => {
  it.each([
    ['LBN-10001 2', 'LBN-10001', 2],
    ['LBN-10001\t2', 'LBN-10001', 2],
    ['LBN-10001,2', 'LBN-10001', 2],
    ['LBN-10001;2', 'LBN-10001', 2],
    ['  lbn-10001   7  ', 'lbn-10001', 7],
    ['"LBN-10001";"3"', 'LBN-10001', 3],
    ['LBN-10001;Matraz Erlenmeyer de 50 ml;4', 'LBN-10001', 4],
    ['LBN 10001 5', 'LBN 10001', 5],
    ['LBN-10001', 'LBN-10001', 1],
  ])('%j → %s × %i', (line, code, quantity) => {
    const [parsed] = parseQuickOrder(line).lines;
    expect(parsed).toMatchObject({ line: 1, code, quantity });
  });

  it.each([
    ['=cmd|" /C calc"!A0;2', /fórmula/],
    ['LBN-10001;=1+1', /fórmula/],
    ['@SUM(A1);1', /fórmula/],
    ['LBN-10001 2.5', /Cantidad no válida: «2\.5»/],
    ['LBN-10001,abc', /Cantidad no válida: «abc»/],
    ['LBN-10001;Matraz Erlenmeyer de 50 ml;abc', /Cantidad no válida: «abc»/],
    ['LBN-10001 0', /mayor que 0/],
    ['LBN-10001 99999999', /no puede ser mayor/],
    [`${'X'.repeat(70)} 1`, /demasiado largo/],
  ])('%j is refused with a Spanish reason', (line, reason) => {
    const [parsed] = parseQuickOrder(line).lines;
    expect(parsed && 'error' in parsed ? parsed.error : '').toMatch(reason);
  });

  it.each([
    ['ANX-10015\t2,030', 2030],
    ['ANX-10015 1,500', 1500],
    ['ANX-10015 2 030', 2030],
    ['ANX-10015\t2\u00a0030', 2030],
    ['ANX-10015;1,500', 1500],
    ['"ANX-10015","1,500"', 1500],
    ['ANX-10015,12', 12],
  ])('%j reads the thousands separator: %i units, not what follows the comma', (line, quantity) => {
    const [parsed] = parseQuickOrder(line).lines;
    expect(parsed).toMatchObject({ code: 'ANX-10015', quantity });
    expect(parsed && 'note' in parsed ? parsed.note : undefined).toBeUndefined();
  });

  it('skips blank lines, comments and a header, keeping the line numbers a person sees', () => {
    const { lines, total } = parseQuickOrder('Código;Cantidad\n\nLBN-10001;2\n# nota\nCRX-10000;1\n');
    expect(total).toBe(2);
    expect(lines.map((l) => l.line)).toEqual([3, 5]);
  });
});

describe('POST /api/quick-order/preview', () => {
  it('resolves each line: found, unknown with suggestions, above stock, no stock, inactive, unreadable', async () => {
    const r = await ok({
      text: [
        'trm-10002 2',
        'LBN-10001 5',
        'CRX-10000 1',
        'ANX-10003 1',
        'LBN-1001 1',
        'ZZZ-99999 1',
        '=cmd 1',
      ].join('\n'),
    });
    const by = (line: number) => r.lines.find((l) => l.line === line)!;
    expect(by(1)).toMatchObject({ status: 'ok', code: 'TRM-10002', quantity: 2 });
    expect(by(1).product?.priceCents).toBeGreaterThan(0);
    expect(by(2)).toMatchObject({ status: 'above_stock', code: 'LBN-10001', quantity: 5 });
    expect(by(2).message).toMatch(/Límite de stock: hay 3 en existencia/);
    expect(by(3)).toMatchObject({ status: 'no_stock', message: expect.stringMatching(/Sin existencia/) });
    expect(by(4)).toMatchObject({ status: 'inactive', product: null });
    expect(by(5)).toMatchObject({ status: 'not_found' });
    expect(by(5).suggestions.length).toBeGreaterThan(0);
    expect(by(5).suggestions.every((s) => s.code.startsWith('LBN-1001'))).toBe(true);
    expect(by(6)).toMatchObject({ status: 'not_found', suggestions: [] });
    expect(by(7)).toMatchObject({ status: 'invalid', message: expect.stringMatching(/fórmula/) });
  });

  it('a known code with a word for a quantity says the quantity is not valid, never that the code is unknown or 1', async () => {
    const r = await ok({ text: 'TRM-10002 x\nTRM-10002,abc\nlbn 10001 zz' });
    expect(r.lines[0]).toMatchObject({
      status: 'invalid',
      code: 'TRM-10002',
      message: 'Cantidad no válida: «x»',
    });
    expect(r.lines[1]).toMatchObject({ status: 'invalid', message: 'Cantidad no válida: «abc»' });
    // A code written with a space is found before its last word is taken for the quantity.
    expect(r.lines[2]).toMatchObject({
      status: 'invalid',
      code: 'LBN-10001',
      message: 'Cantidad no válida: «zz»',
    });
  });

  it('shows the unit price the cart will charge once the quantity reaches a volume price', async () => {
    const db = t.database.db;
    const [row] = (await db.execute(sql`select price_cents from products where code = 'TRM-10002'`)).rows as {
      price_cents: number;
    }[];
    const list = Number(row!.price_cents);
    const volume = Math.floor(list * 0.9);
    await db.execute(
      sql`insert into price_breaks (product_code, min_quantity, price_cents) values ('TRM-10002', 10, ${volume})`,
    );
    try {
      const r = await ok({ text: 'TRM-10002\t12\nTRM-10002 2', cart: [] });
      expect(r.lines[0]?.product).toMatchObject({ priceCents: list, unitPriceCents: volume });
      const below = await ok({ text: 'TRM-10002 2' });
      expect(below.lines[0]?.product).toMatchObject({ priceCents: list, unitPriceCents: list });
      // 6 in the cart and 4 more reach the break: the cart charges the volume price on all 10.
      const topUp = await ok({ text: 'TRM-10002 4', cart: [{ code: 'TRM-10002', quantity: 6 }] });
      expect(topUp.lines[0]?.product?.unitPriceCents).toBe(volume);
    } finally {
      await db.execute(sql`delete from price_breaks where product_code = 'TRM-10002'`);
    }
  });

  it("names a presentation with its label, as the cart will ('…, 4 L')", async () => {
    const db = t.database.db;
    const [row] = (await db.execute(sql`select name from products where code = 'TRM-10002'`)).rows as {
      name: string;
    }[];
    await db.execute(sql`update products set presentation_label = '4 L' where code = 'TRM-10002'`);
    try {
      const [line] = (await ok({ text: 'TRM-10002 1' })).lines;
      expect(line?.product?.name).toBe(`${row!.name}, 4 L`);
    } finally {
      await db.execute(sql`update products set presentation_label = null where code = 'TRM-10002'`);
    }
  });

  it('finds a code written with spaces and says how it was written', async () => {
    const [line] = (await ok({ text: 'lbn 10001 1' })).lines;
    expect(line).toMatchObject({ status: 'ok', code: 'LBN-10001' });
    expect(line?.message).toMatch(/código escrito «lbn 10001»/);
  });

  it('counts what the cart already holds and earlier lines of the same product, as the product page does', async () => {
    const withCart = await ok({ text: 'LBN-10001 2', cart: [{ code: 'LBN-10001', quantity: 2 }] });
    expect(withCart.lines[0]).toMatchObject({ status: 'above_stock' });
    expect(withCart.lines[0]?.message).toMatch(/ya lleva 2/);
    const twice = await ok({ text: 'LBN-10001 2\nLBN-10001 2' });
    expect(twice.lines.map((l) => l.status)).toEqual(['ok', 'above_stock']);
  });

  it('reads a CSV file in UTF-8, and in Latin-1 from Excel saying so', async () => {
    const utf8 = Buffer.from('Código;Cantidad\r\nTRM-10002;2\r\n', 'utf8');
    expect((await ok({ file: { name: 'pedido.csv', base64: utf8.toString('base64') } })).lines).toMatchObject(
      [{ status: 'ok', code: 'TRM-10002', quantity: 2 }],
    );
    const latin1 = Buffer.from(
      'C\xf3digo;Descripci\xf3n;Cantidad\r\nTRM-10002;Matraz de 50 ml ñ;3\r\n',
      'latin1',
    );
    const r = await ok({ file: { name: 'pedido.csv', base64: latin1.toString('base64') } });
    expect(r.lines).toMatchObject([{ status: 'ok', code: 'TRM-10002', quantity: 3 }]);
    expect(r.notes.join(' ')).toMatch(/Latin-1/);
  });

  it('refuses binary files, Excel workbooks, oversized input and 5,000 lines with a clear message, never a 500', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        {
          file: {
            name: 'foto.png',
            base64: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]).toString('base64'),
          },
        },
        /no es un archivo de texto/,
      ],
      [
        { file: { name: 'pedido.xlsx', base64: Buffer.from('PK\x03\x04rest', 'latin1').toString('base64') } },
        /Excel/,
      ],
      [{ file: { name: 'grande.csv', base64: Buffer.alloc(120_000, 65).toString('base64') } }, /100 KB/],
      [
        {
          text: Array.from({ length: 5000 }, (_, i) => `LBN-${i} 1`)
            .join('\n')
            .slice(0, 49_000),
        },
        /admite hasta 100/,
      ],
      [{ text: 'x'.repeat(60_000) }, /50 KB/],
      [{ text: '\n\n  \n' }, /No hay líneas/],
      [{}, /Pegue las líneas/],
      [{ text: 'A 1', file: { name: 'a.csv', base64: 'QQ==' } }, /Pegue las líneas/],
    ];
    for (const [body, message] of cases) {
      const res = await preview(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/quick-order/preview',
      payload: { text: 'x'.repeat(400_000) },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.message).toMatch(/demasiado grande|grande/i);
  });
});

describe('Excel workbooks (.xlsx): the first sheet, read with zlib only', () => {
  const upload = (bytes: Buffer, name = 'pedido.xlsx') => ({
    file: { name, base64: bytes.toString('base64') },
  });

  it('reads the first sheet: shared strings, inline strings and numbers, at the rows Excel shows', async () => {
    const book = xlsx([
      {
        name: 'Pedido marzo',
        rows: [
          [{ s: 'Código' }, { s: 'Descripción' }, { s: 'Cantidad' }],
          [{ s: 'TRM-10002' }, { s: 'Matraz «50 ml» & tapón' }, { n: 2 }],
          null, // a blank row: the next line is still Excel's row 4
          [{ inline: 'lbn-10001' }, null, { n: '1.0' }],
          [{ n: 10003 }, { s: 'código numérico' }, { n: '1E+0' }],
          [{ s: 'NO-EXISTE-9' }, null, { n: 1 }],
        ],
      },
      { name: 'Precios', rows: [[{ s: 'CRX-10000' }, { n: 5 }]] },
    ]);
    const r = await ok(upload(book));
    expect(r.lines.map((l) => [l.line, l.status, l.code, l.quantity])).toEqual([
      [2, 'ok', 'TRM-10002', 2],
      [4, 'ok', 'LBN-10001', 1],
      [5, 'not_found', null, 1],
      [6, 'not_found', null, 1],
    ]);
    expect(r.lines[2]?.message).toBe('No encontramos el código «10003»');
    expect(r.notes).toEqual([
      'Se leyó la hoja «Pedido marzo» del libro de Excel (la primera de 2; las demás no se leen).',
    ]);
  });

  it('refuses formula cells line by line, as pasted formulas are', async () => {
    const book = xlsx([
      {
        name: 'Hoja1',
        rows: [
          [{ s: 'TRM-10002' }, { f: 'A1*0+3', v: '3' }],
          [{ f: 'CONCATENATE("cmd|\' /C calc\'!A0")', v: 'x', t: 'str' }, { n: 1 }],
          [{ s: 'LBN-10001' }, { n: 1 }],
        ],
      },
    ]);
    const r = await ok(upload(book));
    expect(r.lines.map((l) => [l.line, l.status])).toEqual([
      [1, 'invalid'],
      [2, 'invalid'],
      [3, 'ok'],
    ]);
    expect(r.lines[0]?.message).toBe(
      'La celda «=A1*0+3» es una fórmula de hoja de cálculo: escriba solo el código y la cantidad',
    );
  });

  it('refuses junk, a renamed file, other archives, damaged and oversized workbooks with a Spanish message, never a 500', async () => {
    const good = xlsx([{ name: 'Hoja1', rows: [[{ s: 'TRM-10002' }, { n: 1 }]] }]);
    const bomb = zip([
      {
        name: 'xl/workbook.xml',
        data: '<workbook><sheets><sheet name="A" r:id="rId1"/></sheets></workbook>',
      },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(XLSX_MAX_PART_BYTES + 1, 0x20) },
    ]);
    // A part that says it is small but inflates to far more: zlib stops at the cap.
    const liar = Buffer.from(bomb);
    const at = liar.lastIndexOf(Buffer.from('xl/worksheets/sheet1.xml')) - 46;
    liar.writeUInt32LE(100, at + 24);
    const cases: [Buffer, string, RegExp][] = [
      [Buffer.from(`PK\x03\x04${'x'.repeat(200)}`, 'latin1'), 'junk.xlsx', /dañado/],
      [good.subarray(0, good.length - 40), 'cortado.xlsx', /dañado/],
      [zip([{ name: 'word/document.xml', data: '<w:document/>' }]), 'carta.xlsx', /no es un libro de Excel/],
      [
        zip([{ name: 'xl/workbook.xml', data: '<!DOCTYPE x [<!ENTITY a "b">]><workbook/>' }]),
        'dtd.xlsx',
        /no es un libro de Excel/,
      ],
      [bomb, 'bomba.xlsx', /demasiado grande/],
      [liar, 'mentira.xlsx', /demasiado grande/],
      [Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'viejo.xls', /97-2003/],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]), 'pedido.xlsx', /no es un archivo de texto/],
    ];
    for (const [bytes, name, message] of cases) {
      const res = await preview(upload(bytes, name));
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error.message, name).toMatch(message);
    }
    expect(bomb.length).toBeLessThan(100_000);
    // A shared-string index outside the table is damage, not a crash.
    const wrongIndex = zip([
      {
        name: 'xl/workbook.xml',
        data: '<workbook><sheets><sheet name="A" r:id="rId1"/></sheets></workbook>',
      },
      {
        name: 'xl/worksheets/sheet1.xml',
        data: '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>7</v></c></row></sheetData></worksheet>',
      },
    ]);
    expect((await preview(upload(wrongIndex))).json().error.message).toMatch(/dañado/);
  });
});
