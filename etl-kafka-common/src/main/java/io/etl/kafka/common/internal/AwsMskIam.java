package io.etl.kafka.common.internal;

import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.SaslMechanism;

/**
 * The optional jar behind SASL mechanism AWS_MSK_IAM ({@value KafkaSecurityConfig#AWS_MSK_IAM_ARTIFACT}): whether
 * it is on the class path, and the error that names it when it is not.
 */
public final class AwsMskIam {

    /** The jar's SASL client callback handler. */
    static final String CALLBACK_HANDLER = "software.amazon.msk.auth.iam.IAMClientCallbackHandler";

    private AwsMskIam() {}

    /** Whether the AWS_MSK_IAM login module is on the class path. */
    public static boolean available() {
        for (ClassLoader loader :
                new ClassLoader[] {Thread.currentThread().getContextClassLoader(), AwsMskIam.class.getClassLoader()}) {
            if (loader == null) {
                continue;
            }
            try {
                Class.forName(SaslMechanism.AWS_MSK_IAM.loginModule(), false, loader);
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                // try the next loader
            }
        }
        return false;
    }

    /** The problem of a section that uses AWS_MSK_IAM without the jar. */
    public static String missing() {
        return "AWS_MSK_IAM needs " + KafkaSecurityConfig.AWS_MSK_IAM_ARTIFACT + " on the class path (class "
                + SaslMechanism.AWS_MSK_IAM.loginModule() + " not found); add that dependency to the application";
    }
}
