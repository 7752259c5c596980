import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { ProductsResponse } from '../../../src/shared/schemas/catalog.ts';

/** GET /api/products through app.inject, expecting 200 (test helper). */
export async function listVia(
  app: FastifyInstance,
  query: Record<string, string | string[]>,
): Promise<ProductsResponse> {
  const res = await app.inject({ url: '/api/products', query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
