package io.chronix.api.query;

import io.chronix.engine.Chronix;
import io.chronix.tenancy.namespace.Namespace;

/** The engine holding a namespace's measurements, held open for the length of one query. */
public interface NamespaceTables {

    /** Holds a namespace's engine open until closed. */
    interface Handle extends AutoCloseable {
        Chronix engine();

        @Override
        void close();
    }

    /** The namespace's engine, opened if it is not; the caller closes the handle. */
    Handle open(Namespace namespace);
}
