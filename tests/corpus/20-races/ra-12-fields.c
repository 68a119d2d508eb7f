// Fields of one struct are separate memory: two threads writing different fields do not race;
// the same field does.
#include <pthread.h>

struct stats {
    long rx;
    long tx;
    long errors;
} st;

static void *receiver(void *arg) {
    (void)arg;
    st.rx++; // NO-RACE: only this thread touches `rx`
    st.errors++; // RACE!: the sender updates it too
    return 0;
}

static void *sender(void *arg) {
    (void)arg;
    st.tx++; // NO-RACE
    st.errors++; // RACE!
    return 0;
}

int main(void) {
    pthread_t r, s;
    pthread_create(&r, 0, receiver, 0);
    pthread_create(&s, 0, sender, 0);
    pthread_join(r, 0);
    pthread_join(s, 0);
    return 0;
}
