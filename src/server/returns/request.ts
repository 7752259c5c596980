import { and, eq, inArray } from 'drizzle-orm';
import { OPEN_RETURN_STATES, RETURN_REASON_LABELS, returnRefusal } from '../../shared/returns.ts';
import type { ReturnRequest, ReturnView } from '../../shared/schemas/returns.ts';
import { imageProblem } from '../admin/media-checks.ts';
import { sniffImageType } from '../catalog/media.ts';
import { returnLines, returnPhotos, returns } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import type { OrderContext } from '../orders/context.ts';
import { lockOrder } from '../orders/lock.ts';
import { deliveredOn, returnableLines, windowClosed } from './eligibility.ts';
import { enqueueReturnMail, enqueueStaffReturnNotice } from './mail.ts';
import { returnById } from './view.ts';

const ORDER_NOT_FOUND = 'Pedido no encontrado';
/** A buyer's open returns of one order at a time (an abuse brake; the quantities are the real limit). */
const MAX_OPEN_PER_ORDER = 5;

/**
 * A buyer asks to return lines of their own delivered order (decision 062), under the order's lock so that two
 * requests at once never return more than was bought. The policy's window and exceptions are checked here
 * (src/shared/returns.ts); photos are judged by their content like the product pictures. Mails the buyer.
 */
export async function requestReturn(
  ctx: OrderContext,
  userId: number,
  orderNumber: number,
  request: ReturnRequest,
): Promise<ReturnView> {
  const photos: { data: Buffer; type: string }[] = [];
  for (const [i, photo] of request.photos.entries()) {
    const data = Buffer.from(photo.contentBase64, 'base64');
    const problem = await imageProblem(data);
    if (problem) throw badRequest(`Foto ${i + 1}: ${problem}`, { photos: `Foto ${i + 1}: ${problem}` });
    photos.push({ data, type: sniffImageType(data)! });
  }
  if (request.reason === 'defective' && photos.length === 0)
    throw badRequest('Adjunte al menos una foto del defecto o daño', {
      photos: 'Adjunte al menos una foto del defecto o daño',
    });
  const lineNos = request.lines.map((l) => l.lineNo);
  if (new Set(lineNos).size !== lineNos.length)
    throw badRequest('Cada producto se indica una sola vez', {
      lines: 'Cada producto se indica una sola vez',
    });

  const id = await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderNumber);
    if (!order || order.userId !== userId) throw notFound(ORDER_NOT_FOUND);
    const closed = windowClosed(order, await deliveredOn(tx, order));
    if (closed) throw conflict(closed, 'return_window');
    const open = await tx.$count(returns, sqlOpen(orderNumber));
    if (open >= MAX_OPEN_PER_ORDER)
      throw conflict(
        'Este pedido ya tiene varias devoluciones en curso; espere a que se resuelvan',
        'too_many',
      );
    const available = await returnableLines(tx, orderNumber);
    const chosen = request.lines.map((asked) => {
      const line = available.find((l) => l.lineNo === asked.lineNo);
      if (!line)
        throw badRequest('El producto no es de este pedido', { lines: 'El producto no es de este pedido' });
      if (asked.quantity > line.returnable)
        throw conflict(
          line.returnable === 0
            ? `${line.description}: ya está en otra devolución`
            : `${line.description}: puede devolver como máximo ${line.returnable}`,
          'return_quantity',
        );
      const refusal = returnRefusal(request.reason, line);
      if (refusal) throw conflict(`${line.description}: ${refusal}`, 'return_policy');
      return { line, quantity: asked.quantity };
    });
    if (request.reason === 'not_needed' && !request.unopened)
      throw badRequest(
        'Por «Ya no lo necesito» solo se aceptan productos sin abrir, en su empaque original',
        {
          unopened: 'Confirme que el producto está sin abrir y en su empaque original',
        },
      );
    const [row] = await tx
      .insert(returns)
      .values({ orderNumber, userId, reason: request.reason, description: request.description })
      .returning();
    await tx.insert(returnLines).values(
      chosen.map(({ line, quantity }) => ({
        returnId: row!.id,
        lineNo: line.lineNo,
        productCode: line.productCode,
        description: line.description,
        unitPriceCents: line.unitPriceCents,
        quantity,
      })),
    );
    if (photos.length)
      await tx
        .insert(returnPhotos)
        .values(photos.map((p) => ({ returnId: row!.id, contentType: p.type, data: p.data })));
    const valueCents = chosen.reduce((s, c) => s + c.line.unitPriceCents * c.quantity, 0);
    const mail = {
      id: row!.id,
      orderNumber,
      userId,
      lines: chosen.map((c) => ({ description: c.line.description, quantity: c.quantity })),
      valueCents,
    };
    await enqueueReturnMail(tx, 'requested', mail, ctx.publicUrl);
    await enqueueStaffReturnNotice(
      tx,
      { ...mail, reasonLabel: RETURN_REASON_LABELS[request.reason] },
      ctx.publicUrl,
    );
    return row!.id;
  });
  return (await returnById(ctx.db, id))!;
}

const sqlOpen = (orderNumber: number) =>
  and(eq(returns.orderNumber, orderNumber), inArray(returns.state, [...OPEN_RETURN_STATES]));
