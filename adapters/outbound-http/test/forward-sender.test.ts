// The forwarder's address policy: internal addresses refused unless allowlisted, a bare host only
// on ports 80 and 443, host:port on that port; and redirects checked again before they are followed.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DestinationAddressPolicy, HttpOutboundSender } from '../src/forward-sender.js';

describe('forwarding: destination address policy', () => {
  it('refuses loopback, private, link-local and metadata addresses by default', () => {
    const policy = new DestinationAddressPolicy([]);
    for (const address of ['127.0.0.1', '10.1.2.3', '192.168.0.1', '169.254.169.254', '::1', 'fe80::1']) expect(policy.check(address, address, 443), address).to.be.a('string');
    expect(policy.check('example.com', '93.184.216.34', 8443)).to.equal(null);
  });

  it('a bare host admits ports 80 and 443 only; host:port admits that port', () => {
    const policy = new DestinationAddressPolicy(['internal.example', '127.0.0.1:9000', '[::1]:9001']);
    expect(policy.check('internal.example', '10.0.0.5', 443)).to.equal(null);
    expect(policy.check('internal.example', '10.0.0.5', 80)).to.equal(null);
    expect(policy.check('internal.example', '10.0.0.5', 8080)).to.be.a('string');
    expect(policy.check('127.0.0.1', '127.0.0.1', 9000)).to.equal(null);
    expect(policy.check('127.0.0.1', '127.0.0.1', 9002)).to.be.a('string');
    expect(policy.check('::1', '::1', 9001)).to.equal(null);
  });

  it('checks a redirect again, port included, before following it', async () => {
    let hits = 0;
    const target: Server = createServer((_req, res) => {
      hits++;
      res.end('reached');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const targetPort = (target.address() as AddressInfo).port;
    const redirector: Server = createServer((req, res) => {
      req.resume();
      res.writeHead(307, { location: `http://127.0.0.1:${targetPort}/` }).end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    const port = (redirector.address() as AddressInfo).port;
    try {
      const onlyRedirector = new HttpOutboundSender(new DestinationAddressPolicy([`127.0.0.1:${port}`]));
      const refused = await onlyRedirector.post(`http://127.0.0.1:${port}/`, {}, Buffer.from('x'), 2000);
      expect(refused.kind).to.equal('blocked');
      expect(hits).to.equal(0);
      onlyRedirector.close();
      const both = new HttpOutboundSender(new DestinationAddressPolicy([`127.0.0.1:${port}`, `127.0.0.1:${targetPort}`]));
      const followed = await both.post(`http://127.0.0.1:${port}/`, {}, Buffer.from('x'), 2000);
      expect(followed).to.include({ kind: 'answered', status: 200, excerpt: 'reached' });
      both.close();
    } finally {
      redirector.close();
      target.close();
    }
  });

  it('a refused connection is a failed attempt, not an exception', async () => {
    const probe: Server = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const sender = new HttpOutboundSender(new DestinationAddressPolicy([`127.0.0.1:${port}`]));
    expect((await sender.post(`http://127.0.0.1:${port}/`, {}, Buffer.from('x'), 2000)).kind).to.equal('unreachable');
    sender.close();
  });
});
