import { expect } from 'chai';
import { redactedDatabaseUrl } from '../src/index.js';

describe('storage-knex: database URLs in messages', () => {
  it('hides the password and keeps the rest', () => {
    expect(redactedDatabaseUrl('postgres://app:s3cr%40t@db.example:5432/switchyard')).to.equal('postgres://app:***@db.example:5432/switchyard');
    expect(redactedDatabaseUrl('postgres://postgres@127.0.0.1:5432/test')).to.equal('postgres://postgres@127.0.0.1:5432/test');
    expect(redactedDatabaseUrl('sqlite:./data/switchyard.db')).to.equal('sqlite:./data/switchyard.db');
  });
});
