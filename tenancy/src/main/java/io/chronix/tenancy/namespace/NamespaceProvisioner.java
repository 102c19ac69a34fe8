package io.chronix.tenancy.namespace;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;

/**
 * What the data plane prepares for a new namespace before it is acknowledged: called inside the
 * transaction that inserts the row, after the insert, so a namespace is committed only once its
 * data-plane side (its directory and identity) is durable. Optional: without one, creating a
 * namespace writes rows only.
 */
public interface NamespaceProvisioner {

    /**
     * @throws FileAlreadyExistsException if something already holds the id's storage: the creation
     *                                    rolls the row back and draws another id
     * @throws IOException                any other failure: the creation fails and rolls back
     */
    void provision(Namespace ns) throws IOException;

    /** Undoes {@link #provision} for a namespace whose transaction did not commit; must not throw. */
    void unprovision(Namespace ns);
}
