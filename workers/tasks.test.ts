import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { SAMPLE_SECRETS, sampleJobs } from '../core/demo/sample-jobs.ts';
import { prepareDeliveries, prepareDelivery, renderBody } from './tasks.ts';

const [standard, chat, suite] = sampleJobs(3);

describe('prepareDelivery', () => {
  it('sends the envelope itself as standard JSON, signed', () => {
    const job = { ...standard!, secrets: SAMPLE_SECRETS, timestamp: Math.floor(Date.now() / 1000) };
    const { body, headers } = prepareDelivery(job);
    expect(body).toBe(job.envelope);
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Packline-Webhooks/1',
      'x-service-event-id': job.id,
      'idempotency-key': job.id,
      'x-service-delivery-format': 'standard-json',
      'webhook-id': job.id,
      'webhook-timestamp': String(job.timestamp),
    });
    for (const secret of SAMPLE_SECRETS) {
      expect(new Stripe('sk_test_x').webhooks.constructEvent(body, headers['x-service-signature']!, secret)).toEqual(
        JSON.parse(job.envelope),
      );
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(job.envelope));
    }
  });

  it('leaves standard JSON unsigned without secrets, and never signs chat or suite bodies', () => {
    expect(Object.keys(prepareDelivery({ ...standard!, secrets: [] }).headers)).not.toContain('x-service-signature');
    for (const job of [chat!, suite!]) {
      const { headers } = prepareDelivery({ ...job, secrets: SAMPLE_SECRETS });
      expect(Object.keys(headers).sort()).toEqual([
        'content-length',
        'content-type',
        'idempotency-key',
        'user-agent',
        'x-service-delivery-format',
        'x-service-event-id',
      ]);
      expect(headers['x-service-delivery-format']).toBe(job.format);
    }
  });

  it('renders chat and suite bodies in their formats', () => {
    expect(JSON.parse(renderBody(chat!))).toMatchObject({ text: expect.any(String), blocks: expect.any(Array) });
    expect(JSON.parse(renderBody(suite!))).toMatchObject({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }],
    });
    expect(() => renderBody({ ...chat!, format: 'fax' as never })).toThrow(/Unknown delivery format: fax/);
  });
});

describe('prepareDeliveries', () => {
  it('keeps the order of the batch and is deterministic', () => {
    const jobs = sampleJobs(72);
    const first = prepareDeliveries(jobs);
    expect(first.map((delivery) => delivery.headers['x-service-event-id'])).toEqual(jobs.map((job) => job.id));
    expect(prepareDeliveries(structuredClone(jobs))).toEqual(first);
  });
});
