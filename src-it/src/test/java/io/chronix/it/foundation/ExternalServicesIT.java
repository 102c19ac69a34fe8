package io.chronix.it.foundation;

import io.chronix.archive.store.S3Backend;
import io.chronix.it.support.ExternalServices;
import io.chronix.it.support.ServiceProcess;
import io.minio.BucketExistsArgs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The jar pointed at a real PostgreSQL and a real S3 server: it uses them and starts nothing embedded. */
class ExternalServicesIT {

    static final String OPERATOR = "it-operator-token-0123456789";

    @TempDir
    Path data;

    @Test
    void usesTheConfiguredPostgresAndS3() throws Exception {
        ExternalServices services = ExternalServices.fresh();
        List<String> args = new ArrayList<>(services.args());
        args.add("--chronix.operator-token=" + OPERATOR);
        try (ServiceProcess service = ServiceProcess.start(data, args)) {
            HttpResponse<String> health = service.get("/actuator/health", OPERATOR);
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body())
                    .contains("\"db\":{\"details\":{\"database\":\"PostgreSQL\"")
                    .contains("s3 " + services.s3().endpoint() + "/" + services.s3().bucket());

            assertThat(data.resolve("postgres")).doesNotExist();
            assertThat(data.resolve("operator-token")).doesNotExist(); // configured, so never written

            // the service created its bucket; minio-java sees it as any S3 client would
            try (S3Backend raw = new S3Backend(services.s3())) {
                assertThat(raw.client().bucketExists(BucketExistsArgs.builder().bucket(services.s3().bucket()).build())).isTrue();
            }

            HttpResponse<String> docs = service.get("/v3/api-docs", null);
            assertThat(docs.statusCode()).isEqualTo(200);
            assertThat(docs.body()).contains("\"openapi\"").contains("/api/v1/whoami");

            assertThat(service.get("/api/v1/whoami", null).statusCode()).isEqualTo(401);
            HttpResponse<String> me = service.get("/api/v1/whoami", OPERATOR);
            assertThat(me.statusCode()).isEqualTo(200);
            assertThat(me.body()).contains("\"kind\":\"operator\"");

            assertThat(service.get("/actuator/prometheus", null).statusCode()).isEqualTo(401);
            assertThat(service.get("/actuator/prometheus", OPERATOR).statusCode()).isEqualTo(200);
        }
    }
}
