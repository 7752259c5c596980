import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REPLICA_PASSWORD,
  REPLICA_USER,
  type SwReplica,
  startSwReplica,
} from '../../../../tests/server/replicas/sw-sapien.ts';
import { sampleComprobante, testCsd } from '../../../../tests/server/support/cfdi-sample.ts';
import { validateCfdiXml } from '../../../../tests/server/support/cfdi-xsd.ts';
import { comprobanteXml, sealComprobante } from '../cfdi.ts';
import { SwSapienPac } from './sw-sapien.ts';
import { readAttribute } from './tfd.ts';
import { PacError } from './types.ts';

const csd = testCsd();
let replica: SwReplica;

beforeAll(async () => {
  replica = await startSwReplica(csd);
});
afterAll(async () => {
  await replica.close();
});

const pacFor = (options: Partial<ConstructorParameters<typeof SwSapienPac>[0]> = {}) =>
  new SwSapienPac({ url: replica.url, user: REPLICA_USER, password: REPLICA_PASSWORD, csd, ...options });

const sealed = () => comprobanteXml(sealComprobante(sampleComprobante(), csd).comprobante);

describe('SW sapien adapter against a local replica of its REST API', () => {
  it('authenticates once, stamps over multipart and returns the PAC’s CFDI', async () => {
    const pac = pacFor();
    const before = replica.requests.length;
    const stamp = await pac.stamp(sealed());
    await pac.stamp(sealed());
    const calls = replica.requests.slice(before).map((r) => r.path);
    expect(calls).toEqual(['/security/authenticate', '/v4/cfdi33/stamp/v4', '/v4/cfdi33/stamp/v4']);
    const stampCall = replica.requests.at(-1);
    expect(stampCall?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(stampCall?.headers.authorization).toMatch(/^Bearer /);
    expect(stamp.uuid).toMatch(/^[0-9A-F-]{36}$/);
    expect(stamp).toMatchObject({
      rfcProvCertif: 'LSO1306189R5',
      satCertificateNumber: '30001000000500003456',
    });
    // Anything but production (services.sw.com.mx) is a test stamp.
    expect(stamp.test).toBe(true);
    expect(readAttribute(stamp.xml, 'tfd:TimbreFiscalDigital', 'UUID')?.toUpperCase()).toBe(stamp.uuid);
    expect(await validateCfdiXml(stamp.xml)).toEqual({ valid: true, errors: [] });
  });

  it('passes the PAC’s refusal on as a Spanish PacError (not transient)', async () => {
    const pac = pacFor();
    const { xml } = await pac.stamp(sealed());
    const error = await pac.stamp(xml).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PacError);
    expect((error as PacError).message).toBe(
      'El PAC rechazó la solicitud: 307 - El comprobante contiene un timbre previo.',
    );
    expect((error as PacError).transient).toBe(false);
  });

  it('reports bad credentials and an unreachable or failing PAC', async () => {
    await expect(pacFor({ password: 'mala' }).stamp(sealed())).rejects.toThrow(
      /El PAC rechazó la solicitud: AU2000/,
    );
    const down = new SwSapienPac({ url: 'http://127.0.0.1:9', token: 'x', csd, timeoutMs: 2000 });
    await expect(down.stamp(sealed())).rejects.toMatchObject({
      message: 'No fue posible comunicarse con el servicio de timbrado; intente de nuevo en unos minutos',
      transient: true,
    });
    replica.failNext(500, { status: 'error', message: 'Internal error' });
    await expect(pacFor().stamp(sealed())).rejects.toMatchObject({ transient: true });
  });

  it('cancels with motivo 02 sending the CSD, and accepts a repeated cancellation (202)', async () => {
    const pac = pacFor();
    const stamp = await pac.stamp(sealed());
    const request = {
      uuid: stamp.uuid,
      issuerRfc: 'EKU9003173C9',
      receiverRfc: 'MASO451221PM4',
      totalCents: 214047,
      motivo: '02' as const,
    };
    const result = await pac.cancel(request);
    expect(result.status).toBe('cancelled');
    expect(result.acknowledgement).toContain('<EstatusUUID>201</EstatusUUID>');
    const body = JSON.parse(replica.requests.at(-1)?.body ?? '{}') as Record<string, string>;
    expect(body).toMatchObject({
      uuid: stamp.uuid,
      rfc: 'EKU9003173C9',
      motivo: '02',
      password: '12345678a',
    });
    expect(Buffer.from(body.b64Cer ?? '', 'base64').length).toBeGreaterThan(1000);
    expect(Buffer.from(body.b64Key ?? '', 'base64').length).toBeGreaterThan(1000);
    expect((await pac.cancel(request)).acknowledgement).toContain('<EstatusUUID>202</EstatusUUID>');
    await expect(pac.cancel({ ...request, uuid: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow(
      /UUID no encontrado/,
    );
  });
});
