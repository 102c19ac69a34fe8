package io.chronix.tenancy;

import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * The installation row: which database this service is attached to.
 *
 * @param id        created by the first migration, stable for the life of the database
 * @param createdAt when the schema was first created
 */
public record Installation(UUID id, Instant createdAt) {

    /** Reads the single row the first migration inserted. */
    public static Installation load(JdbcClient jdbc) {
        return jdbc.sql("SELECT id, created_at FROM installation")
                .query((rs, n) -> new Installation(rs.getObject("id", UUID.class),
                        rs.getObject("created_at", OffsetDateTime.class).toInstant()))
                .single();
    }
}
