// wire(): the container of the packages listed, each service made once from its typed refs; the
// wiring's mistakes (a service provided twice, a dependency nobody provides) fail at boot.
import 'reflect-metadata';
import { expect } from 'chai';
import { Container } from 'inversify';
import { createServiceRef } from '@switchyard/core';
import { WiringError, constantService, createServiceFactory, definePackage, wire } from '../src/index.js';

const greeting = createServiceRef<string>({ id: 'test.Greeting' });
const name = createServiceRef<string>({ id: 'test.Name' });
const part = createServiceRef<string>({ id: 'test.Part', multiple: true });
const parts = createServiceRef<string[]>({ id: 'test.Parts' });

describe('wiring: packages over typed service refs', () => {
  it('resolves each dependency by its ref, once, and hands a multiple ref every contribution in the order listed', async () => {
    let made = 0;
    const container = new Container();
    await container.loadAsync(
      ...wire([
        definePackage('names', [constantService(name, 'Ada')]),
        definePackage('greetings', [
          createServiceFactory({
            service: greeting,
            deps: { who: name },
            factory: ({ who }) => {
              made += 1;
              return `hello ${who}`;
            },
          }),
        ]),
        definePackage('first', [createServiceFactory({ service: part, deps: {}, factory: () => 'one' })]),
        definePackage('second', [createServiceFactory({ service: part, deps: {}, factory: () => 'two' })]),
        definePackage('all', [createServiceFactory({ service: parts, deps: { each: part }, factory: ({ each }) => each })]),
      ]),
    );
    expect(await container.getAsync<string>(greeting.token)).to.equal('hello Ada');
    expect(await container.getAsync<string>(greeting.token)).to.equal('hello Ada');
    expect(made).to.equal(1);
    expect(await container.getAsync<string[]>(parts.token)).to.deep.equal(['one', 'two']);
  });

  it('gives a multiple ref nobody contributes to as an empty list', async () => {
    const container = new Container();
    await container.loadAsync(...wire([definePackage('all', [createServiceFactory({ service: parts, deps: { each: part }, factory: ({ each }) => each })])]));
    expect(await container.getAsync<string[]>(parts.token)).to.deep.equal([]);
  });

  it('refuses at boot a service that two packages provide, naming both', () => {
    expect(() => wire([definePackage('a', [constantService(name, 'Ada')]), definePackage('b', [constantService(name, 'Bo')])]))
      .to.throw(WiringError, 'service test.Name is provided by both a and b');
  });

  it('refuses at boot a dependency that no listed package provides, naming who needs it', () => {
    expect(() => wire([definePackage('greetings', [createServiceFactory({ service: greeting, deps: { who: name }, factory: ({ who }) => who })])]))
      .to.throw(WiringError, "greetings's test.Greeting needs test.Name, which no listed package provides");
    // Unless something else binds it (a plugin's module).
    expect(() => wire([definePackage('greetings', [createServiceFactory({ service: greeting, deps: { who: name }, factory: ({ who }) => who })])], [name])).to.not.throw();
  });
});
