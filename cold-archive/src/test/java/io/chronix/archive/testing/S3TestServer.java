package io.chronix.archive.testing;

import io.chronix.archive.store.S3Backend;
import io.chronix.archive.store.S3Config;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MinIOContainer;

import java.net.URI;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;

/**
 * A real S3-compatible server for tests, started once per JVM and stopped at exit.
 *
 * <p>With a Docker engine: MinIO in a container. Without one: S3Proxy in this process over a
 * transient (in-memory) jclouds blob store, which minio-java talks to exactly as to MinIO.
 */
public final class S3TestServer {

    public static final String ACCESS_KEY = "chronix-test";
    public static final String SECRET_KEY = "chronix-test-secret-key";

    private static S3TestServer instance;

    private final URI endpoint;
    private final String kind;
    private final AutoCloseable stopper;

    private S3TestServer(URI endpoint, String kind, AutoCloseable stopper) {
        this.endpoint = endpoint;
        this.kind = kind;
        this.stopper = stopper;
    }

    /** The shared server, started on first use. */
    public static synchronized S3TestServer get() {
        if (instance == null) {
            instance = start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    instance.stopper.close();
                } catch (Exception ignored) {
                    // the JVM is going away
                }
            }));
        }
        return instance;
    }

    public URI endpoint() {
        return endpoint;
    }

    /** {@code minio-container} or {@code s3proxy}. */
    public String kind() {
        return kind;
    }

    /** A config for a fresh bucket of its own, created on first {@code checkAvailable()}. */
    public S3Config newBucketConfig() {
        String bucket = "chronix-" + UUID.randomUUID().toString().substring(0, 13);
        return new S3Config(endpoint, bucket, ACCESS_KEY, SECRET_KEY, "us-east-1", true, Duration.ofSeconds(5));
    }

    /** A backend over a fresh bucket, checked and ready. */
    public S3Backend newBackend() {
        S3Backend backend = new S3Backend(newBucketConfig());
        backend.checkAvailable();
        return backend;
    }

    private static S3TestServer start() {
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        try {
            if (dockerAvailable()) {
                MinIOContainer minio = new MinIOContainer("minio/minio:latest")
                        .withUserName(ACCESS_KEY).withPassword(SECRET_KEY);
                minio.start();
                return new S3TestServer(URI.create(minio.getS3URL()), "minio-container", minio::stop);
            }
            return startS3Proxy();
        } catch (Exception e) {
            // under CI a missing service is a failure; outside CI it is still a failure, because
            // a test that needs S3 cannot say anything true without one
            throw new IllegalStateException("cannot provision an S3 server for tests" + (ci ? " (CI=true)" : ""), e);
        }
    }

    private static S3TestServer startS3Proxy() throws Exception {
        Properties overrides = new Properties();
        BlobStoreContext context = ContextBuilder.newBuilder("transient")
                .credentials(ACCESS_KEY, SECRET_KEY)
                .overrides(overrides)
                .build(BlobStoreContext.class);
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(context.getBlobStore())
                .awsAuthentication(org.gaul.s3proxy.AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .endpoint(URI.create("http://127.0.0.1:0"))
                .build();
        proxy.start();
        awaitStarted(proxy);
        URI endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
        return new S3TestServer(endpoint, "s3proxy", () -> {
            proxy.stop();
            context.close();
        });
    }

    /**
     * An S3Proxy of the test's own, which it may {@link Private#stop()} and {@link Private#start()}
     * again on the same port (the transient blob store, and so every object, survives): for
     * "the store went away mid-run" tests, which must not disturb the shared server.
     */
    public static Private startPrivate() throws Exception {
        BlobStoreContext context = ContextBuilder.newBuilder("transient")
                .credentials(ACCESS_KEY, SECRET_KEY)
                .build(BlobStoreContext.class);
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Private p = new Private(context, port);
        p.start();
        return p;
    }

    /** See {@link #startPrivate()}. */
    public static final class Private implements AutoCloseable {
        private final BlobStoreContext context;
        private final int port;
        private S3Proxy proxy;

        private Private(BlobStoreContext context, int port) {
            this.context = context;
            this.port = port;
        }

        public URI endpoint() {
            return URI.create("http://127.0.0.1:" + port);
        }

        public S3Config newBucketConfig() {
            String bucket = "chronix-" + UUID.randomUUID().toString().substring(0, 13);
            return new S3Config(endpoint(), bucket, ACCESS_KEY, SECRET_KEY, "us-east-1", true, Duration.ofSeconds(1));
        }

        public synchronized void start() throws Exception {
            if (proxy != null) {
                return;
            }
            S3Proxy p = S3Proxy.builder()
                    .blobStore(context.getBlobStore())
                    .awsAuthentication(org.gaul.s3proxy.AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                    .endpoint(endpoint())
                    .build();
            p.start();
            awaitStarted(p);
            proxy = p;
        }

        public synchronized void stop() throws Exception {
            if (proxy != null) {
                proxy.stop();
                proxy = null;
            }
        }

        @Override
        public void close() throws Exception {
            stop();
            context.close();
        }
    }

    private static void awaitStarted(S3Proxy proxy) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("S3Proxy did not start [state=" + proxy.getState() + "]");
            }
            Thread.sleep(10);
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable t) {
            return false;
        }
    }
}
